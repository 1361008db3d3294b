import { defineConfig } from "vitest/config";

// The API suite (src/api, src/web) runs twice: on embedded PGlite and on a throwaway PostgreSQL
// server. Browser and CLI end-to-end tests, and unit tests, run once.
const apiSuite = ["src/api/**/*.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    reporters: ["default", "./test/summary-reporter.ts"],
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["src/**/*.test.ts"],
          exclude: [...apiSuite, "src/**/*.e2e.test.ts"],
          globalSetup: ["test/setup-embeddings.ts", "test/setup-pglite.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "api-pglite",
          include: apiSuite,
          globalSetup: ["test/setup-embeddings.ts", "test/setup-pglite.ts"],
          env: { DECKSMITH_TEST_DB: "pglite" },
        },
      },
      {
        extends: true,
        test: {
          name: "api-postgres",
          include: apiSuite,
          globalSetup: ["test/setup-embeddings.ts", "test/setup-postgres.ts"],
          env: { DECKSMITH_TEST_DB: "postgres" },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["src/**/*.e2e.test.ts"],
          globalSetup: ["test/setup-embeddings.ts", "test/setup-pglite.ts"],
        },
      },
    ],
  },
});
