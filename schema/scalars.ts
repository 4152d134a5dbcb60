import { DateTimeResolver, JSONResolver } from "graphql-scalars";
import { builder } from "./builder.ts";

builder.addScalarType("DateTime", DateTimeResolver, { description: "An instant in UTC, ISO 8601 with Z." });
builder.addScalarType("JSON", JSONResolver, { description: "Arbitrary JSON: capability maps and contract payloads." });
