import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// base "./" so the built page can be hosted statically anywhere (replay works with no server).
export default defineConfig({
  base: "./",
  plugins: [react()],
  publicDir: "../../public",
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
  worker: { format: "es" },
});
