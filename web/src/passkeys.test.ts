import { describe, expect, it } from "vitest";
import { creationOptions, fromB64url, requestOptions, toB64url } from "./passkeys";

describe("Passkeys: the server's base64url and the browser's bytes", () => {
  it("base64url round-trips every length, without padding", () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) % 256);
      const s = toB64url(bytes.buffer);
      expect(s).not.toMatch(/[+/=]/);
      expect(Array.from(new Uint8Array(fromB64url(s)))).toEqual(Array.from(bytes));
    }
  });

  it("the options' challenge, user id and credential ids become bytes; the rest stays", () => {
    const c = creationOptions(JSON.stringify({ challenge: "AAEC", rp: { id: "localhost", name: "tabletop" },
      user: { id: "YWI", name: "ann", displayName: "ann" }, pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      excludeCredentials: [{ id: "_w", type: "public-key" }] }));
    expect(Array.from(new Uint8Array(c.challenge as ArrayBuffer))).toEqual([0, 1, 2]);
    expect(new TextDecoder().decode(c.user.id as ArrayBuffer)).toBe("ab");
    expect(Array.from(new Uint8Array(c.excludeCredentials![0].id as ArrayBuffer))).toEqual([255]);
    expect(c.rp.id).toBe("localhost");
    const r = requestOptions(JSON.stringify({ challenge: "AQ", rpId: "localhost" }));
    expect(Array.from(new Uint8Array(r.challenge as ArrayBuffer))).toEqual([1]);
    expect(r.allowCredentials).toEqual([]);
  });
});
