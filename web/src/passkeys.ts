// Passkeys (WebAuthn; server: api/routes/passkeys.py): register one from account settings, sign in with one.
// The server's options arrive as JSON with base64url strings where the browser wants bytes, and the browser's
// answer goes back the same way.
import { request } from "./api";

export function fromB64url(s: string): ArrayBuffer {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out.buffer;
}

export function toB64url(buf: ArrayBuffer): string {
  const bytes = new Uint8Array(buf);
  let s = "";
  for (const x of bytes) s += String.fromCharCode(x);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

interface Descriptor { id: string; type: "public-key"; transports?: string[] }

export function creationOptions(json: string): PublicKeyCredentialCreationOptions {
  const o = JSON.parse(json) as Record<string, unknown> & { challenge: string; user: { id: string; name: string; displayName: string };
    excludeCredentials?: Descriptor[] };
  return { ...(o as unknown as PublicKeyCredentialCreationOptions), challenge: fromB64url(o.challenge),
    user: { ...o.user, id: fromB64url(o.user.id) },
    excludeCredentials: (o.excludeCredentials ?? []).map((c) => ({ ...c, id: fromB64url(c.id) }) as PublicKeyCredentialDescriptor) };
}

export function requestOptions(json: string): PublicKeyCredentialRequestOptions {
  const o = JSON.parse(json) as Record<string, unknown> & { challenge: string; allowCredentials?: Descriptor[] };
  return { ...(o as unknown as PublicKeyCredentialRequestOptions), challenge: fromB64url(o.challenge),
    allowCredentials: (o.allowCredentials ?? []).map((c) => ({ ...c, id: fromB64url(c.id) }) as PublicKeyCredentialDescriptor) };
}

function answer(c: PublicKeyCredential): Record<string, unknown> {
  const r = c.response as AuthenticatorAttestationResponse & AuthenticatorAssertionResponse;
  const response: Record<string, unknown> = { clientDataJSON: toB64url(r.clientDataJSON) };
  if ("attestationObject" in r && r.attestationObject) response.attestationObject = toB64url(r.attestationObject);
  if ("authenticatorData" in r && r.authenticatorData) {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) response.userHandle = toB64url(r.userHandle);
  }
  return { id: c.id, rawId: toB64url(c.rawId), type: c.type, response, clientExtensionResults: {} };
}

export interface PasskeyInfo { id: string; name: string; created: string }

export const passkeyApi = {
  list: () => request<PasskeyInfo[]>("GET", "/api/account/passkeys"),
  remove: (id: string) => request<unknown>("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`),
};

/** Make a passkey for the signed-in account and store it on the server. */
export async function registerPasskey(name: string): Promise<PasskeyInfo> {
  const { ceremony, options } = await request<{ ceremony: string; options: string }>("POST", "/api/account/passkeys/options");
  const made = await navigator.credentials.create({ publicKey: creationOptions(options) });
  if (!made) throw new Error("no passkey was made");
  return request<PasskeyInfo>("POST", "/api/account/passkeys", null, { ceremony, credential: answer(made as PublicKeyCredential), name });
}

/** Sign in with a passkey of this server: the session's answer (username, CSRF token). */
export async function signInWithPasskey<T>(): Promise<T> {
  const { ceremony, options } = await request<{ ceremony: string; options: string }>("POST", "/api/account/passkey/options");
  const got = await navigator.credentials.get({ publicKey: requestOptions(options) });
  if (!got) throw new Error("no passkey was chosen");
  return request<T>("POST", "/api/account/passkey/signin", null, { ceremony, credential: answer(got as PublicKeyCredential) });
}
