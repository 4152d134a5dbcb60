// The entitlements bench's load generator, in a process of its own (so it takes no CPU from the server
// it drives inside that server's process): one autocannon run, its figures printed as one JSON line.
// argv: url connections seconds [authorization header]
import autocannon from "autocannon";

const [url, connections, seconds, authorization] = process.argv.slice(2);
const r = await autocannon({ url: url!, connections: Number(connections), duration: Number(seconds), headers: authorization ? { authorization } : {} });
console.log(JSON.stringify({ rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts }));
