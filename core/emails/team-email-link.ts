// The single-use link of a team e-mail (an invitation, a password reset) never rests in clear: the
// outbox row holds it sealed under the gateway credentials' key ring, bound to the team link's id, and
// only the sender opens it. What is stored or listed shows a placeholder instead.
import type { CredentialsVault } from "../gateways/credentials-vault.ts";

export type LinkVault = Pick<CredentialsVault, "seal" | "open">;

/** What the stored body and the list of e-mails show in place of the link. */
export const SEALED_LINK_PLACEHOLDER = "[link de uso único, enviado apenas ao destinatário]";

const sealKey = (linkId: string) => `team_link:${linkId}`;

export function sealTeamLink(vault: LinkVault, linkId: string, url: string): string {
  return vault.seal(sealKey(linkId), { url });
}

export function openTeamLink(vault: LinkVault, linkId: string, sealed: string): string {
  const url = vault.open(sealKey(linkId), sealed).url;
  if (!url) throw new Error(`team link ${linkId} opened without a url`);
  return url;
}
