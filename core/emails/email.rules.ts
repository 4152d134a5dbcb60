// Pure rules of the e-mail outbox: header hygiene, what a failed attempt means, when to try again.

export type EmailErrorCategory = "connection" | "timeout" | "temporary_rejection" | "permanent_rejection";

/** After this many attempts a message still refused or unreachable is FAILED. */
export const MAX_EMAIL_ATTEMPTS = 10;

// Short and capped at 30 s: a server that was down for a minute gets its mail about 30 s after it is back.
const BACKOFF_MS = [5_000, 10_000, 20_000, 30_000];

/** The wait before the next try, after `attempts` tries that all failed (attempts >= 1). */
export function emailBackoffMs(attempts: number): number {
  return BACKOFF_MS[Math.min(Math.max(attempts, 1), BACKOFF_MS.length) - 1]!;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A value for a header (subject, display name): control characters (CR/LF among them) become spaces. */
export function headerText(value: string): string {
  return value.replace(CONTROL, " ").replace(/\s{2,}/g, " ").trim();
}

/** A recipient address carrying a control character is refused rather than repaired. */
export function isCleanAddress(value: string): boolean {
  CONTROL.lastIndex = 0;
  return !CONTROL.test(value) && /^[^\s@<>,;"]+@[^\s@<>,;"]+$/.test(value);
}

/** Our Message-ID for an outbox row: the same on every retry, so a receiver can drop a repeat. */
export function messageIdFor(emailId: string): string {
  return `<${emailId}@billing>`;
}

/** Classifies a transport error (nodemailer's code and SMTP reply code); anything unknown is retried as a connection failure. */
export function classifyEmailError(err: unknown): { category: EmailErrorCategory; permanent: boolean } {
  const e = (err ?? {}) as { code?: string; responseCode?: number; message?: string };
  if (typeof e.responseCode === "number") {
    if (e.responseCode >= 500) return { category: "permanent_rejection", permanent: true };
    if (e.responseCode >= 400) return { category: "temporary_rejection", permanent: false };
  }
  if (e.code === "ETIMEDOUT" || /timeout|timed out/i.test(e.message ?? "")) return { category: "timeout", permanent: false };
  return { category: "connection", permanent: false };
}
