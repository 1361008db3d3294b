CREATE TABLE "presentation_revisions" (
	"presentation_id" text NOT NULL,
	"number" integer NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"instructions" text,
	"changes" jsonb NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "presentation_revisions_presentation_id_number_pk" PRIMARY KEY("presentation_id","number"),
	CONSTRAINT "presentation_revisions_kind_check" CHECK (kind in ('generate', 'edit', 'restore'))
);
--> statement-breakpoint
ALTER TABLE "presentations" ADD COLUMN "generation" jsonb;--> statement-breakpoint
ALTER TABLE "presentations" ADD COLUMN "lease_token" text;--> statement-breakpoint
ALTER TABLE "presentations" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "presentations" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "presentation_revisions" ADD CONSTRAINT "presentation_revisions_presentation_id_presentations_id_fk" FOREIGN KEY ("presentation_id") REFERENCES "public"."presentations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "presentation_revisions" ADD CONSTRAINT "presentation_revisions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entities_links_idx" ON "entities" USING gin ("links");--> statement-breakpoint
CREATE INDEX "presentations_generating_idx" ON "presentations" USING btree ("lease_expires_at") WHERE status = 'generating';