CREATE TABLE "entities" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"type" text NOT NULL,
	"external_id" text,
	"name" text NOT NULL,
	"fields" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"links" text[] DEFAULT '{}'::text[] NOT NULL,
	"embedding" real[],
	"embedding_model" text,
	"embedding_dims" integer,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, coalesce(name, '')), 'A') || setweight(jsonb_to_tsvector('english'::regconfig, fields, '["string", "numeric"]'::jsonb), 'B') || setweight(to_tsvector('english'::regconfig, coalesce(body, '')), 'C')) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "entities" ADD CONSTRAINT "entities_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "entities_external_idx" ON "entities" USING btree ("workspace_id","type","external_id");--> statement-breakpoint
CREATE INDEX "entities_workspace_type_idx" ON "entities" USING btree ("workspace_id","type","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "entities_search_idx" ON "entities" USING gin ("search");