CREATE TABLE "moderation_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"moderator_id" integer,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" bigint NOT NULL,
	"target_user_id" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderators" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "hidden_by" integer;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "complaints" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "message" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "target_user_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "hidden_by" integer;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "cleared_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_moderator_id_users_id_fk" FOREIGN KEY ("moderator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_actions" ADD CONSTRAINT "moderation_actions_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderators" ADD CONSTRAINT "moderators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_actions_target_user_idx" ON "moderation_actions" USING btree ("target_user_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "complaints_open_idx" ON "complaints" USING btree ("target_type","target_id") WHERE "complaints"."closed_at" is null;--> statement-breakpoint
-- The audit log is append-only: no statement may change or remove a row of it, whoever runs it.
CREATE FUNCTION moderation_actions_append_only() RETURNS trigger LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'moderation_actions is append-only: % refused', TG_OP; END $$;--> statement-breakpoint
CREATE TRIGGER moderation_actions_append_only BEFORE UPDATE OR DELETE ON "moderation_actions"
	FOR EACH ROW EXECUTE FUNCTION moderation_actions_append_only();--> statement-breakpoint
CREATE TRIGGER moderation_actions_no_truncate BEFORE TRUNCATE ON "moderation_actions"
	FOR EACH STATEMENT EXECUTE FUNCTION moderation_actions_append_only();
