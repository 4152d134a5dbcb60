import { ERROR_CATALOG } from "../../core/shared/errors.ts";

// The page a LIVE tenant without legal name and CNPJ shows instead of its checkout or /pay form: the
// shopper must see who sells before paying (Decreto 7.962/2013), so nothing is offered nor charged.
export const NOT_SELLING: [heading: string, message: string] = [
  "Pagamento indisponível",
  "Este vendedor ainda não informou sua razão social e seu CNPJ, por isso não pode receber pagamentos por esta página. Nada foi cobrado. Fale com o vendedor.",
];

/** Its status and code: the catalogue's (the operator hears the same code when switching such a tenant to LIVE). */
export const INCOMPLETE = ERROR_CATALOG.seller_incomplete;
