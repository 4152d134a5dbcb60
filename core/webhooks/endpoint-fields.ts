// What a vendor may write on an endpoint besides its URL: a plain-text description and the event
// types it subscribes to (empty = all). Pure checks, shared by creation and edit.
import { isEventType } from "../events/event-types.ts";
import { AppError } from "../shared/errors.ts";

export const MAX_DESCRIPTION = 500;

/** Trimmed, control characters out (a description is one or a few lines of text, never markup). */
export function endpointDescription(raw: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex
  const text = (raw ?? "").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "").trim();
  if (text.length > MAX_DESCRIPTION) throw new AppError("invalid_argument", { error: `description must be at most ${MAX_DESCRIPTION} characters` });
  return text;
}

/** The contract's event types, each once; an unknown one is refused by name. */
export function endpointEvents(events: readonly string[]): string[] {
  const unknown = events.filter((e) => !isEventType(e));
  if (unknown.length) throw new AppError("invalid_argument", { error: `unknown event types: ${unknown.join(", ")}` });
  return [...new Set(events)];
}
