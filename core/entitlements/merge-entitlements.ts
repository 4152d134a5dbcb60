// Union of capability maps. On a shared key: true beats false, the larger number wins, and
// otherwise the newer subscription's value stands.
export type Entitlements = Record<string, unknown>;

export function mergeEntitlements(maps: Entitlements[]): Entitlements {
  const merged: Entitlements = {};
  for (const map of maps) {
    for (const [key, value] of Object.entries(map)) {
      const prev = merged[key];
      if (typeof prev === "boolean" && typeof value === "boolean") merged[key] = prev || value;
      else if (typeof prev === "number" && typeof value === "number") merged[key] = Math.max(prev, value);
      else merged[key] = value;
    }
  }
  return merged;
}
