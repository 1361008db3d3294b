import { eq } from "drizzle-orm";
import { z } from "zod";
import { AppError, notFound, parseInput } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Db } from "../storage/db.ts";
import { users } from "../storage/schema.ts";
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from "./secrets.ts";

export const emailSchema = z
  .email({ message: "must be an email address" })
  .max(254)
  .transform((e) => e.toLowerCase());
export const passwordSchema = z
  .string()
  .min(8, "must be at least 8 characters")
  .max(200, "must be at most 200 characters");

export const createUserInput = z.object({
  email: emailSchema,
  password: passwordSchema,
  name: z.string().trim().min(1).max(200).optional(),
});

export type User = { id: string; email: string; name: string; createdAt: Date };

export function createUserService(deps: { db: Db }) {
  const { db } = deps;

  async function findByEmail(email: string): Promise<User | undefined> {
    const [row] = await db
      .select({ id: users.id, email: users.email, name: users.name, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.email, email.toLowerCase()));
    return row;
  }

  return {
    findByEmail,

    async getByEmail(email: string): Promise<User> {
      const user = await findByEmail(email);
      if (!user) throw notFound(`User ${email}`);
      return user;
    },

    async getById(id: string): Promise<User | undefined> {
      const [row] = await db
        .select({ id: users.id, email: users.email, name: users.name, createdAt: users.createdAt })
        .from(users)
        .where(eq(users.id, id));
      return row;
    },

    async create(input: z.input<typeof createUserInput>): Promise<User> {
      const { email, password, name } = parseInput(createUserInput, input);
      if (await findByEmail(email)) throw new AppError("conflict", `User ${email} already exists`);
      const [row] = await db
        .insert(users)
        .values({
          id: newId(),
          email,
          name: name ?? email.split("@")[0] ?? email,
          passwordHash: await hashPassword(password),
        })
        .onConflictDoNothing()
        .returning({ id: users.id, email: users.email, name: users.name, createdAt: users.createdAt });
      if (!row) throw new AppError("conflict", `User ${email} already exists`);
      return row;
    },

    /** The user for this email and password, or undefined; takes the same time either way. */
    async verifyCredentials(email: string, password: string): Promise<User | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
      const ok = await verifyPassword(password, row?.passwordHash ?? DUMMY_PASSWORD_HASH);
      return ok && row
        ? { id: row.id, email: row.email, name: row.name, createdAt: row.createdAt }
        : undefined;
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
