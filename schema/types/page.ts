// Keyset pages as Relay connections: the cursor is the row's own id.
import { AppError } from "../../core/shared/errors.ts";
import type { IdKind } from "../../core/shared/ids.ts";
import { keyset, toPage, type Page } from "../../core/shared/pagination.ts";

/** Keyset pages only go forward; `last`/`before` are refused rather than ignored. */
export function forwardOnly(args: { last?: number | null; before?: string | null }): void {
  if (args.last != null || args.before != null) throw new AppError("invalid_parameter", { error: "only first/after paging is supported" });
}

export function pageToConnection<T extends { id: string }>(page: Page<T>) {
  const first = page.rows[0];
  const last = page.rows[page.rows.length - 1];
  return {
    edges: page.rows.map((node) => ({ cursor: node.id, node })),
    pageInfo: {
      hasNextPage: page.next !== null,
      hasPreviousPage: false,
      startCursor: first?.id ?? null,
      endCursor: last?.id ?? null,
    },
  };
}

/** One keyset page of rows of `kind` after `after`: `load` gets the id bound and the take (limit + 1). */
export async function keysetConnection<T extends { id: string }>(
  kind: IdKind,
  args: { first?: number | null; after?: string | null; last?: number | null; before?: string | null },
  load: (idAfter: { gt: string } | undefined, take: number) => Promise<T[]>,
) {
  forwardOnly(args);
  const k = keyset({ limit: args.first, after: args.after }, kind);
  return pageToConnection(toPage(await load(k.afterId ? { gt: k.afterId } : undefined, k.take), k));
}
