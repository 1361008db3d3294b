// The render pool's worker entry when running from TypeScript sources (tests, `tsx`): registers
// tsx inside the worker thread, then loads the real worker. The bundle uses dist/render-worker.mjs.
import { register } from "tsx/esm/api";

register();
const worker = await import("./render-worker.ts");
export default worker.default;
