// Every status write goes through moveStatus, which guards it with the model's transition table
// (prisma/status-machines.ts) and writes
//   UPDATE <table> SET status = $to, ... WHERE id = $id AND tenant_id = $tenant AND status IN (<allowed from>)
// so a row that moved meanwhile (a cancel committed first) is never overwritten: zero rows is a
// conflict. The database refuses the same moves (triggers generated from the same tables,
// prisma/status-triggers.ts), so a write that bypasses this file fails too.
import { Prisma, type EmailStatus, type InvoiceStatus, type LinkStatus, type OrderStatus, type PaymentStatus, type ReferralStatus, type RefundStatus, type SubscriptionStatus } from "../../generated/prisma/client.ts";
import type { StatusTable } from "../../prisma/status-machines.ts";
import { AppError } from "./errors.ts";
import { sqlQuery, type SqlClient } from "../../prisma/direct-sql.ts";

/** What each model's status write takes. */
interface Models {
  subscription: { status: SubscriptionStatus; where: Prisma.SubscriptionWhereInput; data: Prisma.SubscriptionUncheckedUpdateManyInput };
  invoice: { status: InvoiceStatus; where: Prisma.InvoiceWhereInput; data: Prisma.InvoiceUncheckedUpdateManyInput };
  payment: { status: PaymentStatus; where: Prisma.PaymentWhereInput; data: Prisma.PaymentUncheckedUpdateManyInput };
  order: { status: OrderStatus; where: Prisma.OrderWhereInput; data: Prisma.OrderUncheckedUpdateManyInput };
  refund: { status: RefundStatus; where: Prisma.RefundWhereInput; data: Prisma.RefundUncheckedUpdateManyInput };
  link: { status: LinkStatus; where: Prisma.LinkWhereInput; data: Prisma.LinkUncheckedUpdateManyInput };
  referral: { status: ReferralStatus; where: Prisma.ReferralWhereInput; data: Prisma.ReferralUncheckedUpdateManyInput };
  emailMessage: { status: EmailStatus; where: Prisma.EmailMessageWhereInput; data: Prisma.EmailMessageUncheckedUpdateManyInput };
}

export type StatusModel = keyof Models;
export type StatusOf<M extends StatusModel> = Models[M]["status"];

/** A model's transition table (prisma/status-machines.ts), typed by the model's status enum. */
export type StatusMachine<M extends StatusModel> = StatusTable<M, StatusOf<M>>;

export function canMove<M extends StatusModel>(machine: StatusMachine<M>, from: StatusOf<M>, to: StatusOf<M>): boolean {
  return machine.transitions[from].includes(to);
}

/** The statuses a row may be in for `to` to be written (raw SQL: `status = ANY(${allowedFrom(...)}::"Enum"[])`). */
export function allowedFrom<M extends StatusModel>(machine: StatusMachine<M>, to: StatusOf<M>): StatusOf<M>[] {
  return (Object.keys(machine.transitions) as StatusOf<M>[]).filter((from) => canMove(machine, from, to));
}

/** Raw SQL guard: `<column> = ANY(<statuses>)`, e.g. statusIn(PAYMENT, allowedFrom(PAYMENT, "PAID"), "p.status"). */
export function statusIn<M extends StatusModel>(machine: StatusMachine<M>, statuses: readonly StatusOf<M>[], column = "status"): Prisma.Sql {
  // text[] first: the drivers send a JS array as text[] (a direct enum-array parameter is malformed on PGlite).
  return Prisma.sql`${Prisma.raw(column)} = ANY((${[...statuses]}::text[])::${Prisma.raw(`"${machine.enumType}"`)}[])`;
}

/** Raw SQL guard of a write to `to`: the row is in a status the table lets become `to` (batch SQL). */
export function statusAllows<M extends StatusModel>(machine: StatusMachine<M>, to: StatusOf<M>, column = "status"): Prisma.Sql {
  return statusIn(machine, allowedFrom(machine, to), column);
}

export function moveRefused(model: StatusModel, to: string, from?: string): AppError {
  return new AppError("conflict", { error: from ? `a ${from.toLowerCase()} ${model} cannot become ${to.toLowerCase()}` : `the ${model} can no longer become ${to.toLowerCase()}` });
}

/** Throws the conflict when the table has no such move (a guard before any write). */
export function assertMove<M extends StatusModel>(machine: StatusMachine<M>, from: StatusOf<M>, to: StatusOf<M>): void {
  if (!canMove(machine, from, to)) throw moveRefused(machine.model, to, from);
}

/** A Prisma client or transaction: anything with the status models' delegates. */
type Writer = Pick<Prisma.TransactionClient, StatusModel>;

export interface MoveInput<M extends StatusModel> {
  tenantId: string;
  to: StatusOf<M>;
  /** Narrows the table's allowed-from set for this write (e.g. only PENDING_FIRST_PAYMENT); never widens it. */
  from?: readonly StatusOf<M>[];
  /** Other columns written with the status. */
  data?: Omit<Models[M]["data"], "status">;
}

/**
 * Moves every row matching `where` (within the tenant) whose status allows `to`; returns how many
 * moved. Rows in another status are left alone: for bulk moves ("void the open invoices") that is the point.
 */
export async function moveStatuses<M extends StatusModel>(
  tx: Writer,
  machine: StatusMachine<M>,
  input: MoveInput<M> & { where: Models[M]["where"] },
): Promise<number> {
  const from = fromSet(machine, input.to, input.from);
  if (from.length === 0) return 0;
  const delegate = tx[machine.model] as unknown as { updateMany(args: { where: unknown; data: unknown }): Promise<{ count: number }> };
  const moved = await delegate.updateMany({
    where: { ...input.where, tenantId: input.tenantId, status: { in: from } },
    data: { ...input.data, status: input.to },
  });
  return moved.count;
}

/** One row's move; false when the row is not (or no longer) in a status the move allows. */
export async function tryMoveStatus<M extends StatusModel>(tx: Writer, machine: StatusMachine<M>, input: MoveInput<M> & { id: string }): Promise<boolean> {
  return (await moveStatuses(tx, machine, { ...input, where: { id: input.id } as Models[M]["where"] })) === 1;
}

/** One row's move; a row that is not in an allowed status is a conflict (409). */
export async function moveStatus<M extends StatusModel>(tx: Writer, machine: StatusMachine<M>, input: MoveInput<M> & { id: string }): Promise<void> {
  if (!(await tryMoveStatus(tx, machine, input))) throw moveRefused(machine.model, input.to);
}

export type SqlType = "text" | "timestamp" | "integer" | "boolean";
type SqlValue = string | number | boolean | Date | null;

/**
 * Moves many rows to `to` in one statement, each with its own column values (a settlement of a whole
 * batch): the same guard as moveStatus (`status = ANY(<allowed from>)`, within each row's tenant).
 * Returns the ids that moved; a row in another status is left alone.
 */
export async function moveStatusRows<M extends StatusModel>(
  tx: SqlClient,
  machine: StatusMachine<M>,
  input: {
    to: StatusOf<M>;
    /** SQL column -> type of the per-row values written with the status. */
    columns?: Record<string, SqlType>;
    rows: { id: string; tenantId: string; values?: Record<string, SqlValue> }[];
    /** More assignments computed in SQL from the row (`t`), e.g. a counter. */
    also?: Prisma.Sql;
    /** A data-modifying statement run with the move, over the ids that moved (the CTE `moved`): one round trip, not two. */
    withMoved?: Prisma.Sql;
  },
): Promise<string[]> {
  const { rows } = input;
  if (rows.length === 0) return [];
  const columns = Object.entries(input.columns ?? {});
  const param = (v: SqlValue | undefined) => (v instanceof Date ? v.toISOString() : (v ?? null));
  const arrays = [
    Prisma.sql`${rows.map((r) => r.id)}::text[]`,
    Prisma.sql`${rows.map((r) => r.tenantId)}::text[]`,
    ...columns.map(([c, type]) => Prisma.sql`${rows.map((r) => param(r.values?.[c]))}::${Prisma.raw(type)}[]`),
  ];
  const names = ["id", "tenant_id", ...columns.map(([c]) => c)].map((n) => `"${n}"`).join(", ");
  const sets = [
    Prisma.sql`"status" = (${input.to}::text)::${Prisma.raw(`"${machine.enumType}"`)}`,
    ...columns.map(([c]) => Prisma.raw(`"${c}" = v."${c}"`)),
    ...(input.also ? [input.also] : []),
  ];
  const update = Prisma.sql`
    UPDATE ${Prisma.raw(`"${machine.table}"`)} AS t SET ${Prisma.join(sets, ", ")}
    FROM unnest(${Prisma.join(arrays, ", ")}) AS v(${Prisma.raw(names)})
    WHERE t.id = v.id AND t.tenant_id = v.tenant_id AND ${statusAllows(machine, input.to, "t.status")}
    RETURNING t.id`;
  const moved = await sqlQuery<{ id: string }>(
    tx,
    input.withMoved ? Prisma.sql`WITH moved AS (${update}), after_move AS (${input.withMoved}) SELECT id FROM moved` : update,
  );
  return moved.map((r) => r.id);
}

function fromSet<M extends StatusModel>(machine: StatusMachine<M>, to: StatusOf<M>, narrowed?: readonly StatusOf<M>[]): StatusOf<M>[] {
  const allowed = allowedFrom(machine, to);
  if (!narrowed) return allowed;
  const outside = narrowed.filter((s) => !allowed.includes(s));
  // A programming error, not a state: the caller asked for a move the table does not have.
  if (outside.length) throw new Error(`${machine.model}: ${outside.join(", ")} -> ${to} is not in the transition table`);
  return [...narrowed];
}
