CREATE TABLE "oauth_records" (
	"kind" text NOT NULL,
	"id_hash" text NOT NULL,
	"grant_id" text,
	"uid" text,
	"account_id" text,
	"client_id" text,
	"workspace_ids" text[],
	"payload" jsonb NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "oauth_records_kind_id_hash_pk" PRIMARY KEY("kind","id_hash")
);
--> statement-breakpoint
CREATE INDEX "oauth_records_grant_idx" ON "oauth_records" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "oauth_records_account_idx" ON "oauth_records" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "oauth_records_expires_idx" ON "oauth_records" USING btree ("expires_at");