// The hosted pages' shell: pt-BR, mobile first, inline CSS, no JavaScript, no external asset. The
// icon browsers fetch on their own is served at /favicon.ico (favicon.ts).
// Values reach HTML only through `html`, which escapes every interpolation that is not itself `html`.

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

type Part = SafeHtml | string | number | null | undefined | false | Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (Array.isArray(part)) return part.map(render).join("");
  if (part instanceof SafeHtml) return part.value;
  return escapeHtml(part);
}

/** Tagged template: strings, numbers and arrays are escaped; nested `html` is kept; null/undefined/false vanish. */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? "";
  values.forEach((v, i) => (out += render(v) + (strings[i + 1] ?? "")));
  return new SafeHtml(out);
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2330;background:#f3f5f8}
main{max-width:32rem;margin:0 auto;padding:1rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.08);margin-bottom:1rem}
h1{font-size:1.35rem;margin:0 0 .25rem}
h2{font-size:1.05rem;margin:0 0 .75rem}
.muted{color:#5b6475;font-size:.9rem;margin:.25rem 0}
.price{font-size:1.6rem;font-weight:700;margin:.5rem 0 0}
.price small{font-size:1rem;font-weight:400;color:#5b6475}
.badge{display:inline-block;background:#fff4d6;color:#7a5300;border-radius:6px;padding:.1rem .5rem;font-size:.8rem}
label{display:block;font-weight:600;margin:.85rem 0 .25rem}
input[type=text],input[type=email],input[type=tel],textarea{display:block;width:100%;max-width:100%;font:inherit;padding:.65rem .75rem;border:1px solid #c4cad6;border-radius:8px;background:#fff}
input[aria-invalid=true]{border-color:#c62828}
fieldset{border:0;padding:0;margin:1rem 0 0;min-width:0}
legend{font-weight:700;padding:0}
.row{display:flex;gap:.75rem}
.row>div{flex:1;min-width:0}
.choice{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.4rem 0}
.err{color:#c62828;font-size:.9rem;margin:.25rem 0 0}
.alert{background:#fdecea;color:#8e1c1c;border-radius:8px;padding:.75rem;margin:0 0 1rem}
button{display:block;width:100%;margin-top:1.25rem;padding:.85rem;font:inherit;font-weight:700;color:#fff;background:#1f5eff;border:0;border-radius:8px}
form:has(input[name=method][value=pix]:checked) .card-fields{display:none}
textarea{word-break:break-all;resize:none}
img.qr{display:block;width:100%;max-width:16rem;height:auto;margin:1rem auto}
`;

/** A complete page. `title` is plain text; `body` is already-safe HTML. */
export function renderPage(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style>${new SafeHtml(CSS)}</style>
</head>
<body><main>${body}</main></body>
</html>`.value;
}

/** A page with one message: unknown offer, refused request, unexpected failure. */
export function renderMessagePage(heading: string, message: string): string {
  return renderPage(heading, html`<div class="card"><h1>${heading}</h1><p>${message}</p></div>`);
}
