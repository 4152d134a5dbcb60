// The browser pages' shell: pt-BR, mobile first, inline CSS, no JavaScript, no external asset. The
// icon browsers fetch on their own is served at /favicon.ico (favicon.ts).
// Pages are Preact components rendered to a string on the server: every text and attribute value is
// escaped by the renderer, and the only raw HTML is our own constant CSS and a tokenizer's own script.
import { createContext, type ComponentChildren, type VNode } from "preact";
import { useContext } from "preact/hooks";
import { renderToString } from "preact-render-to-string";
import type { Seller } from "../../core/tenants/get-seller.ts";
import { SellerFooter } from "./seller-footer.tsx";

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
input[type=text],input[type=email],input[type=tel],input[type=password],input[type=url],input[type=number],input[type=datetime-local],input[type=date],select,textarea{display:block;width:100%;max-width:100%;font:inherit;padding:.65rem .75rem;border:1px solid #c4cad6;border-radius:8px;background:#fff}
input[aria-invalid=true]{border-color:#c62828}
fieldset{border:0;padding:0;margin:1rem 0 0;min-width:0}
legend{font-weight:700;padding:0}
.row{display:flex;gap:.75rem}
.row>div{flex:1;min-width:0}
.choice{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.4rem 0}
.err{color:#c62828;font-size:.9rem;margin:.25rem 0 0}
.alert{background:#fdecea;color:#8e1c1c;border-radius:8px;padding:.75rem;margin:0 0 1rem}
[hidden]{display:none!important}
code{overflow-wrap:anywhere}
button{display:block;width:100%;min-height:2.75rem;margin-top:1.25rem;padding:.85rem;font:inherit;font-weight:700;color:#fff;background:#1f5eff;border:0;border-radius:8px}
form:has(input[name=method][value=pix]:checked) .card-fields{display:none}
textarea{word-break:break-all;resize:none}
dl.sum{margin:.75rem 0 0}
.sum-row{display:flex;justify-content:space-between;gap:.75rem;padding:.35rem 0;border-top:1px solid #e6e9ef}
.sum-row dt{font-weight:600}
.sum-row dd{margin:0;text-align:right}
.inline{display:flex;gap:.5rem;align-items:flex-end}
.inline>div{flex:1;min-width:0}
.inline button{width:auto;margin-top:0;padding:.65rem 1rem}
img.qr{display:block;width:100%;max-width:16rem;height:auto;margin:1rem auto}
footer.seller{max-width:32rem;margin:0 auto;padding:0 1rem 2rem;color:#4a5263;font-size:.85rem}
footer.seller p{margin:.35rem 0}
footer.seller a{color:#1546c4}
`;

/** A complete page around `children`; `title` is plain text. `seller`: the tenant's identity, in the footer. */
export function Page({ title, children, seller }: { title: string; children?: ComponentChildren; seller?: Seller | null }) {
  const fromContext = useContext(SellerContext);
  const who = seller ?? fromContext;
  return (
    <html lang="pt-BR">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        {/* Our constant stylesheet, not escaped: entities would break selectors such as `.row>div`. */}
        <style dangerouslySetInnerHTML={{ __html: CSS }} />
      </head>
      <body>
        <main>{children}</main>
        {who ? <SellerFooter seller={who} /> : null}
      </body>
    </html>
  );
}

/** The seller a router renders a page for: every Page inside shows it in the footer (no prop threading). */
export const SellerContext = createContext<Seller | null>(null);

/** The HTML document the routers send; `seller` signs every Page in it. */
export function renderDocument(page: VNode, seller?: Seller | null): string {
  return `<!doctype html>\n${renderToString(seller ? <SellerContext.Provider value={seller}>{page}</SellerContext.Provider> : page)}`;
}

/** A page with one message: unknown offer, refused request, unexpected failure. */
export function MessagePage({ heading, message }: { heading: string; message: string }) {
  return (
    <Page title={heading}>
      <div class="card">
        <h1>{heading}</h1>
        <p>{message}</p>
      </div>
    </Page>
  );
}

export function renderMessagePage(heading: string, message: string, seller?: Seller | null): string {
  return renderDocument(<MessagePage heading={heading} message={message} />, seller);
}
