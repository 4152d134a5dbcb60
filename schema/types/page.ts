// Keyset pages as Relay connections: the cursor is the row's own id.
import type { Page } from "../../core/shared/pagination.ts";

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
