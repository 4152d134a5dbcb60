// A Pix to pay, as the checkout's result page and /pay show it: the amount and who receives it, the QR
// image, the copy-and-paste code (a selectable field; with JavaScript a "Copiar código" button too)
// and until when it is valid. With `follow`, our own script (/pix/follow.js, CSP script-src 'self')
// polls the payment's status and opens the result page once paid; without JavaScript the "Já paguei"
// link opens it.
import { useContext } from "preact/hooks";
import { parseBrCode } from "../../core/gateways/pix-br-code.ts";
import { formatDateTime, formatPrice } from "../ui/format.ts";
import { SellerContext } from "../ui/layout.tsx";
import { PIX_FOLLOW_PATH } from "./pix-follow.ts";

export interface PixFollow {
  statusUrl: string;
  resultUrl: string;
}

/** The amount the code itself asks (EMV field 54): the page shows what the bank app will show. */
function amountOf(copyPaste: string): number | null {
  const value = parseBrCode(copyPaste)?.get("54");
  if (!value || !/^\d+\.\d{2}$/.test(value)) return null;
  return Number(value.replace(".", ""));
}

export function PixCode({ qrSrc, copyPaste, expiresAt, follow }: { qrSrc: string; copyPaste: string; expiresAt: Date; follow?: PixFollow | null }) {
  const seller = useContext(SellerContext);
  const amount = amountOf(copyPaste);
  return (
    <>
      {amount !== null ? (
        <p class="price">
          {formatPrice(amount, "brl")} <small>no Pix</small>
        </p>
      ) : null}
      {seller ? <p class="muted">Recebedor: {seller.legalName ?? seller.name}</p> : null}
      <img class="qr" src={qrSrc} alt="QR Code do Pix" width={256} height={256} />
      <label for="pix-copy-paste">Pix copia e cola</label>
      <textarea id="pix-copy-paste" readonly rows={5}>
        {copyPaste}
      </textarea>
      <button type="button" id="pix-copy" hidden>
        Copiar código
      </button>
      <p class="muted">Válido até {formatDateTime(expiresAt)} (horário de Brasília).</p>
      {follow ? (
        <>
          <p id="pix-follow" class="muted" role="status" data-status-url={follow.statusUrl} data-result-url={follow.resultUrl}>
            Assim que o pagamento for confirmado, esta página avança sozinha.
          </p>
          <p>
            <a href={follow.resultUrl}>Já paguei</a>
          </p>
        </>
      ) : null}
      <script src={PIX_FOLLOW_PATH} defer></script>
    </>
  );
}
