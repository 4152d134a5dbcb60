// The payment part of the checkout and /pay forms: the method choice and the sandbox's own card fields
// (a real gateway's card box is browser-card-markup.tsx). card_number and card_cvc are never written back.
import { TextField, type FieldError } from "../ui/text-field.tsx";

type Method = "card" | "pix";
const METHOD_LABEL = { card: "Cartão de crédito", pix: "Pix" } as const;

/** Radios for the offered methods; the submitted one stays chosen, else the first. */
export function MethodChoice({ methods, value, error }: { methods: Method[]; value: string | undefined; error?: string | null }) {
  const chosen = methods.includes(value as Method) ? value : methods[0];
  return (
    <fieldset>
      <legend>Forma de pagamento</legend>
      {methods.map((m) => (
        <label class="choice">
          <input type="radio" name="method" value={m} checked={m === chosen} required /> {METHOD_LABEL[m]}
        </label>
      ))}
      {error ? (
        <p class="err" id="e-method">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The sandbox's card form (test cards only): a real gateway's card is typed in its own script's fields. */
export function SandboxCardFields({ values, error }: { values: Record<string, string>; error: FieldError | null }) {
  const errorOf = (name: string) => (error?.field === name ? error.error : null);
  const kept = (name: string) => values[name] ?? "";
  return (
    <fieldset class="card-fields">
      <legend>Cartão de crédito</legend>
      <TextField name="card_holder" label="Nome impresso no cartão" value={kept("card_holder")} error={errorOf("card_holder")} autocomplete="cc-name" maxlength={100} />
      <TextField name="card_number" label="Número do cartão" value="" error={errorOf("card_number")} autocomplete="cc-number" inputmode="numeric" maxlength={23} />
      <div class="row">
        <TextField name="card_exp_month" label="Mês" value={kept("card_exp_month")} error={errorOf("card_exp_month")} autocomplete="cc-exp-month" inputmode="numeric" placeholder="MM" maxlength={2} />
        <TextField name="card_exp_year" label="Ano" value={kept("card_exp_year")} error={errorOf("card_exp_year")} autocomplete="cc-exp-year" inputmode="numeric" placeholder="AAAA" maxlength={4} />
        <TextField name="card_cvc" label="CVC" value="" error={errorOf("card_cvc")} autocomplete="cc-csc" inputmode="numeric" maxlength={4} />
      </div>
    </fieldset>
  );
}
