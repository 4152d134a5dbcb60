// Who sells, on every hosted page (Decreto 7.962/2013: name, CNPJ, address and contact; CDC art. 49:
// the 7-day withdrawal right). The tenant's profile, as core/tenants/get-seller.ts formats it.
import type { Seller } from "../../core/tenants/get-seller.ts";

export function SellerFooter({ seller }: { seller: Seller }) {
  const who = seller.legalName ?? seller.name;
  const contact = seller.supportEmail || seller.supportPhone;
  return (
    <footer class="seller">
      <p>
        Vendido por <strong>{who}</strong>
        {seller.cnpj ? <> · CNPJ {seller.cnpj}</> : null}
      </p>
      {seller.address ? <p>{seller.address}</p> : null}
      {contact ? (
        <p>
          Atendimento:{" "}
          {seller.supportEmail ? <a href={`mailto:${seller.supportEmail}`}>{seller.supportEmail}</a> : null}
          {seller.supportEmail && seller.supportPhone ? " · " : null}
          {seller.supportPhone ? <a href={`tel:${seller.supportPhoneE164}`}>{seller.supportPhone}</a> : null}
        </p>
      ) : null}
      {seller.termsUrl || seller.privacyUrl ? (
        <p>
          {seller.termsUrl ? <a href={seller.termsUrl}>Termos de uso</a> : null}
          {seller.termsUrl && seller.privacyUrl ? " · " : null}
          {seller.privacyUrl ? <a href={seller.privacyUrl}>Política de privacidade</a> : null}
        </p>
      ) : null}
      <p>
        Para cancelar, fale com o atendimento {contact ? "acima" : "do vendedor"} a qualquer momento: as cobranças seguintes deixam de ser feitas.
      </p>
      <p>Você pode desistir da compra em até 7 dias após a contratação e receber de volta o valor pago (Código de Defesa do Consumidor, art. 49).</p>
    </footer>
  );
}
