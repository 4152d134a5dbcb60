// A Pix charge is waiting: the copy-and-paste code, its QR code (an inline PNG, never a remote image)
// and the payment page, so the customer does not need the checkout tab any more.
import QRCode from "qrcode";
import type { EmailFrame, InlineImage, PixChargeIssuedParams } from "./email-content.ts";
import { Button, Code, Facts, factsText, P, type Fact, type TemplateBody } from "./email-layout.tsx";
import { dateTime, money, productLine } from "./wording.ts";

/** A Content-ID of our own: the reference, kept to characters every client accepts. */
function qrCid(reference: string): string {
  return `pix-qr-${reference.replace(/[^A-Za-z0-9._-]/g, "") || "code"}@billing`;
}

export async function pixChargeIssuedEmail(p: PixChargeIssuedParams, _frame: EmailFrame): Promise<TemplateBody> {
  const amount = money(p.amountCents, p.currency);
  const expires = dateTime(p.expiresAt);
  const qr: InlineImage = {
    cid: qrCid(p.reference),
    filename: "pix-qrcode.png",
    contentType: "image/png",
    content: await QRCode.toBuffer(p.brCode, { type: "png", errorCorrectionLevel: "M", margin: 2, width: 240 }),
  };
  const intro = `Seu Pix de ${amount} para ${productLine(p.productName, p.planName)} está pronto. Pague até ${expires}; depois disso o código deixa de valer.`;
  const how = "No app do seu banco, escolha Pix Copia e Cola e cole o código abaixo, ou leia o QR code com a câmera.";
  const facts: Fact[] = [
    ["Valor", amount],
    ["Pague até", expires],
    ["Referência", p.reference],
  ];
  const after = "Assim que o pagamento for confirmado, enviaremos o recibo.";
  return {
    audience: "customer",
    heading: "Seu Pix está pronto para pagamento",
    preheader: `${amount}, pague até ${expires}.`,
    html: (
      <>
        <P>{intro}</P>
        <Facts rows={facts} />
        <P>{how}</P>
        <Code label="Código Pix Copia e Cola">{p.brCode}</Code>
        <p style={{ margin: "0 0 16px", textAlign: "center" }}>
          <img src={`cid:${qr.cid}`} width={240} height={240} alt={`QR code do Pix de ${amount}`} style={{ display: "block", margin: "0 auto", width: "240px", maxWidth: "100%", height: "auto", border: 0 }} />
        </p>
        <P>Você também pode pagar pela página de pagamento:</P>
        <Button href={p.payUrl}>Abrir a página de pagamento</Button>
        <P muted>{after}</P>
      </>
    ),
    text: [intro, factsText(facts), how, `Código Pix Copia e Cola:\n${p.brCode}`, `Página de pagamento: ${p.payUrl}`, after],
    inline: [qr],
  };
}
