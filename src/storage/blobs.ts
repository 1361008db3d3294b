import fs from "node:fs";
import path from "node:path";

// Where exported files live. A directory under DATA_DIR by default; the interface is what an
// S3-compatible store needs too (put, get as a stream, exists), so one can replace it.

export type BlobStore = {
  put(key: string, data: Buffer): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The blob as a stream and its size, or undefined. */
  get(key: string): Promise<{ stream: NodeJS.ReadableStream; size: number } | undefined>;
};

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]*$/;

export function createFileBlobStore(root: string): BlobStore {
  const fileOf = (key: string) => {
    if (!SAFE_KEY.test(key) || key.includes("..")) throw new Error(`unsafe blob key ${key}`);
    return path.join(root, key);
  };
  return {
    async put(key, data) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Write then rename: a reader never sees half a file, and a crash leaves no partial blob.
      const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
      await fs.promises.writeFile(partial, data);
      await fs.promises.rename(partial, file);
    },
    async exists(key) {
      return fs.promises.access(fileOf(key)).then(
        () => true,
        () => false,
      );
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const { size } = await fs.promises.stat(file);
        return { stream: fs.createReadStream(file), size };
      } catch {
        return undefined;
      }
    },
  };
}
