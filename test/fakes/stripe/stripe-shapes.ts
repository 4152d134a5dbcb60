// Checks a JSON answer against the `stripe` package's own TypeScript types (its .d.ts, read with the
// TypeScript compiler at test time), so the fake cannot drift from what Stripe documents:
//   - every required (non-optional) field of an object is present;
//   - no field the type does not declare, and no null where the type has none (Stripe omits an optional
//     field it has nothing for, e.g. a succeeded refund's failure_reason);
//   - primitives, literals (an `object: 'refund'`), arrays and nested objects of the declared types.
// Unions are narrowed by their literal fields first (Stripe.Event by `type`, an object by `object`).
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** Where each kind of answer is checked: a name of ours → a type expression over `Stripe`. */
const SHAPES = {
  account: "Stripe.Account",
  balance: "Stripe.Balance",
  charge: "Stripe.Charge",
  customer: "Stripe.Customer",
  dispute: "Stripe.Dispute",
  event: "Stripe.Event",
  payment_intent: "Stripe.PaymentIntent",
  payment_method: "Stripe.PaymentMethod",
  refund: "Stripe.Refund",
  setup_intent: "Stripe.SetupIntent",
  payment_intent_list: "Stripe.ApiList<Stripe.PaymentIntent>",
  refund_list: "Stripe.ApiList<Stripe.Refund>",
  customer_search: "Stripe.ApiSearchResult<Stripe.Customer>",
  payment_intent_search: "Stripe.ApiSearchResult<Stripe.PaymentIntent>",
} as const;

export type ShapeName = keyof typeof SHAPES;

interface Checker {
  checker: ts.TypeChecker;
  types: Map<ShapeName, ts.Type>;
}

let loaded: Checker | null = null;

/** The types, compiled once per process from a small file that only names them (seconds: call it in a beforeAll). */
export function loadShapes(): void {
  load();
}

function load(): Checker {
  if (loaded) return loaded;
  // A file that exists only in memory, beside this one: "stripe" resolves from here as from our code.
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "__stripe_shapes__.ts");
  const source = `import type Stripe from "stripe";\nexport interface Shapes {\n${Object.entries(SHAPES)
    .map(([k, t]) => `  ${k}: ${t};`)
    .join("\n")}\n}\n`;
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === file ? source : readFile(f));
  host.fileExists = (f) => f === file || fileExists(f);
  host.getSourceFile = (f, lang, onError, create) => (f === file ? ts.createSourceFile(f, source, lang) : getSourceFile(f, lang, onError, create));
  const program = ts.createProgram([file], options, host);
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(file)!;
  const shapes = sf.statements.find(ts.isInterfaceDeclaration)!;
  const iface = checker.getTypeAtLocation(shapes);
  const types = new Map<ShapeName, ts.Type>();
  for (const name of Object.keys(SHAPES) as ShapeName[]) {
    const prop = iface.getProperty(name);
    if (!prop) throw new Error(`stripe-shapes: no ${name}`);
    const type = checker.getTypeOfSymbol(prop);
    if (type.flags & ts.TypeFlags.Any) throw new Error(`stripe-shapes: ${SHAPES[name]} did not resolve (is the stripe package installed?)`);
    types.set(name, type);
  }
  loaded = { checker, types };
  return loaded;
}

/** Every way `value` differs from the `stripe` package's type `name`, as "path: problem" lines (none: it fits). */
export function shapeErrors(name: ShapeName, value: unknown): string[] {
  const { checker, types } = load();
  const errors: string[] = [];
  check(checker, JSON.parse(JSON.stringify(value)) as unknown, types.get(name)!, name, errors);
  return errors;
}

const describe = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

function check(checker: ts.TypeChecker, value: unknown, type: ts.Type, at: string, errors: string[]): void {
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return;
  if (type.isUnion()) return checkUnion(checker, value, type, at, errors);
  if (value === null) {
    if (!(f & ts.TypeFlags.Null)) errors.push(`${at}: null, but the type is ${checker.typeToString(type)} (Stripe omits it or sends a value)`);
    return;
  }
  if (f & ts.TypeFlags.Undefined) return void errors.push(`${at}: present, but the type is undefined`);
  if (f & ts.TypeFlags.StringLiteral) {
    if (value !== (type as ts.StringLiteralType).value) errors.push(`${at}: ${JSON.stringify(value)}, expected '${(type as ts.StringLiteralType).value}'`);
    return;
  }
  if (f & ts.TypeFlags.NumberLiteral) {
    if (value !== (type as ts.NumberLiteralType).value) errors.push(`${at}: ${JSON.stringify(value)}, expected ${(type as ts.NumberLiteralType).value}`);
    return;
  }
  if (f & ts.TypeFlags.BooleanLiteral) {
    if (value !== (checker.typeToString(type) === "true")) errors.push(`${at}: ${JSON.stringify(value)}, expected ${checker.typeToString(type)}`);
    return;
  }
  if (f & ts.TypeFlags.StringLike) return void (typeof value !== "string" && errors.push(`${at}: ${describe(value)}, expected string`));
  if (f & ts.TypeFlags.NumberLike) return void ((typeof value !== "number" || !Number.isFinite(value)) && errors.push(`${at}: ${describe(value)}, expected number`));
  if (f & ts.TypeFlags.BooleanLike) return void (typeof value !== "boolean" && errors.push(`${at}: ${describe(value)}, expected boolean`));
  if (type.isIntersection()) {
    // OtherString is `string & Record<never, never>`: the primitive part decides.
    const primitive = type.types.find((t) => t.flags & (ts.TypeFlags.StringLike | ts.TypeFlags.NumberLike | ts.TypeFlags.BooleanLike));
    if (primitive) return check(checker, value, primitive, at, errors);
    for (const t of type.types) check(checker, value, t, at, errors);
    return;
  }
  if (checker.isArrayType(type)) {
    if (!Array.isArray(value)) return void errors.push(`${at}: ${describe(value)}, expected array`);
    const element = checker.getTypeArguments(type as ts.TypeReference)[0]!;
    value.forEach((v, i) => check(checker, v, element, `${at}[${i}]`, errors));
    return;
  }
  if (f & ts.TypeFlags.Object) {
    if (typeof value !== "object" || Array.isArray(value)) return void errors.push(`${at}: ${describe(value)}, expected ${checker.typeToString(type)}`);
    const obj = value as Record<string, unknown>;
    const props = checker.getPropertiesOfType(type);
    const index = checker.getIndexInfosOfType(type).find((i) => i.keyType.flags & ts.TypeFlags.String);
    const declared = new Set(props.map((p) => p.name));
    for (const p of props) {
      if (p.valueDeclaration && (ts.isMethodSignature(p.valueDeclaration) || ts.isMethodDeclaration(p.valueDeclaration))) continue;
      const optional = (p.flags & ts.SymbolFlags.Optional) !== 0;
      if (!(p.name in obj) || obj[p.name] === undefined) {
        if (!optional) errors.push(`${at}.${p.name}: missing (required by ${checker.typeToString(type)})`);
        continue;
      }
      check(checker, obj[p.name], checker.getTypeOfSymbol(p), `${at}.${p.name}`, errors);
    }
    for (const [k, v] of Object.entries(obj)) {
      if (declared.has(k)) continue;
      if (index) check(checker, v, index.type, `${at}.${k}`, errors);
      else errors.push(`${at}.${k}: not a field of ${checker.typeToString(type)}`);
    }
    return;
  }
  errors.push(`${at}: cannot check type ${checker.typeToString(type)}`);
}

function checkUnion(checker: ts.TypeChecker, value: unknown, type: ts.UnionType, at: string, errors: string[]): void {
  let members = type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined));
  if (value === null) {
    if (!members.some((t) => t.flags & ts.TypeFlags.Null)) errors.push(`${at}: null, but the type is ${checker.typeToString(type)} (Stripe omits it or sends a value)`);
    return;
  }
  members = members.filter((t) => !(t.flags & ts.TypeFlags.Null));
  // An object is matched to the members whose literal fields it carries (Event by `type`, objects by `object`).
  if (typeof value === "object" && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const fitting = members.filter((m) => !(m.flags & ts.TypeFlags.Object) || literalFieldsFit(checker, m, obj));
    if (fitting.length) members = fitting;
  }
  let best: string[] | null = null;
  for (const m of members) {
    const errs: string[] = [];
    check(checker, value, m, at, errs);
    if (!errs.length) return;
    if (!best || errs.length < best.length) best = errs;
  }
  errors.push(...(best ?? [`${at}: matches no member of ${checker.typeToString(type)}`]));
}

function literalFieldsFit(checker: ts.TypeChecker, member: ts.Type, obj: Record<string, unknown>): boolean {
  for (const name of ["object", "type"]) {
    const p = member.getProperty(name);
    if (!p) continue;
    const t = checker.getTypeOfSymbol(p);
    const literals = (t.isUnion() ? t.types : [t]).filter((x) => x.flags & ts.TypeFlags.StringLiteral).map((x) => (x as ts.StringLiteralType).value);
    const open = (t.isUnion() ? t.types : [t]).some((x) => !(x.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.Undefined)));
    if (literals.length && !open && !literals.includes(obj[name] as string)) return false;
  }
  return true;
}
