// One labelled text input and its error line, as every form on the pages draws it (GOV.UK's pattern:
// the error under the field, the field marked invalid and pointing at it).

/** A refusal about one submitted field (or "" for the whole form). */
export interface FieldError {
  field: string;
  error: string;
}

export interface TextFieldProps {
  name: string;
  label: string;
  value: string;
  /** The error shown under this field, if any. */
  error?: string | null;
  type?: "text" | "email" | "tel" | "password" | "url";
  autocomplete?: string;
  inputmode?: "numeric" | "tel" | "email" | "url";
  placeholder?: string;
  maxlength?: number;
  required?: boolean;
}

export function TextField(p: TextFieldProps) {
  const id = `f-${p.name}`;
  const errorId = `e-${p.name}`;
  return (
    <div>
      <label for={id}>{p.label}</label>
      <input
        id={id}
        name={p.name}
        // Preact types <input> per `type`; these text-like types take the same attributes.
        type={(p.type ?? "text") as "text"}
        value={p.value}
        autocomplete={p.autocomplete}
        inputmode={p.inputmode}
        placeholder={p.placeholder}
        maxlength={p.maxlength}
        required={p.required}
        aria-invalid={p.error ? "true" : undefined}
        aria-describedby={p.error ? errorId : undefined}
      />
      {p.error ? (
        <p class="err" id={errorId}>
          {p.error}
        </p>
      ) : null}
    </div>
  );
}
