// Builds the browser client into the Python package (src/tabletop/server/static), where `tabletop serve` serves it.
import { defineConfig } from "vitest/config";

export default defineConfig({
  base: "/",
  build: {
    outDir: "../src/tabletop/server/static",
    emptyOutDir: true,
    target: "es2020",
    assetsDir: "assets",
    reportCompressedSize: false,
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
