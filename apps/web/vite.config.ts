import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// base "./" so the built page can be hosted statically anywhere (replay works with no server).
// The page is one 0.55 MB chunk (175 kB gzipped), served from localhost or a file: splitting it
// would add round trips to a load it does not slow, so Vite's 500 kB warning (a hint for pages on
// the internet) is raised past it rather than printed at every `npm run up`.
export default defineConfig({
  base: "./",
  plugins: [react()],
  publicDir: "../../public",
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1024 },
  worker: { format: "es" },
});
