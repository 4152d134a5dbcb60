import { GraphQLScalarType } from "graphql";
import { DateTimeResolver, JSONResolver } from "graphql-scalars";
import { builder } from "./builder.ts";

/**
 * graphql-scalars' DateTime, whose output is the ISO text itself rather than a Date left for the
 * HTTP layer's JSON.stringify: the facade's in-process calls read results without that step.
 */
const DateTime = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  serialize: (value) => {
    const out = DateTimeResolver.serialize(value);
    return out instanceof Date ? out.toISOString() : out;
  },
});

builder.addScalarType("DateTime", DateTime, { description: "An instant in UTC, ISO 8601 with Z." });
builder.addScalarType("JSON", JSONResolver, { description: "Arbitrary JSON: capability maps and contract payloads." });
