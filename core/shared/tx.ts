// A Prisma interactive transaction: what a use case's writes run in, so they commit (or not) together.
import type { Prisma } from "../../generated/prisma/client.ts";

export type Tx = Prisma.TransactionClient;
