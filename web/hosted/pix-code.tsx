// A Pix to pay, as the checkout's result page and /pay show it: the QR image, the copy-and-paste code
// and until when it is valid.
import { formatDateTime } from "../ui/format.ts";

export function PixCode({ qrSrc, copyPaste, expiresAt }: { qrSrc: string; copyPaste: string; expiresAt: Date }) {
  return (
    <>
      <img class="qr" src={qrSrc} alt="QR Code do Pix" width={256} height={256} />
      <label for="pix-copy-paste">Pix copia e cola</label>
      <textarea id="pix-copy-paste" readonly rows={5}>
        {copyPaste}
      </textarea>
      <p class="muted">Válido até {formatDateTime(expiresAt)} (horário de Brasília).</p>
    </>
  );
}
