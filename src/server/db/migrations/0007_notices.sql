CREATE SEQUENCE "public"."notices_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "notice_actors" (
	"notice_id" bigint NOT NULL,
	"actor_id" integer NOT NULL,
	"seq" bigint NOT NULL,
	"acted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notice_actors_notice_id_actor_id_pk" PRIMARY KEY("notice_id","actor_id")
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"tab" text NOT NULL,
	"seq" bigint DEFAULT nextval('notices_seq') NOT NULL,
	"post_id" bigint DEFAULT 0 NOT NULL,
	"comment_id" bigint DEFAULT 0 NOT NULL,
	"target_comment_id" bigint DEFAULT 0 NOT NULL,
	"day" integer DEFAULT 0 NOT NULL,
	"actor_count" integer DEFAULT 1 NOT NULL,
	"unread" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notice_unread" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notice_comment" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notice_like" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notice_follow" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "notice_actors" ADD CONSTRAINT "notice_actors_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_actors" ADD CONSTRAINT "notice_actors_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notice_actors_order_idx" ON "notice_actors" USING btree ("notice_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "notices_user_seq_idx" ON "notices" USING btree ("user_id","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notices_user_tab_seq_idx" ON "notices" USING btree ("user_id","tab","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notices_unread_idx" ON "notices" USING btree ("user_id","seq") WHERE "notices"."unread";--> statement-breakpoint
CREATE UNIQUE INDEX "notices_group_idx" ON "notices" USING btree ("user_id","type","post_id","comment_id","day") WHERE "notices"."type" in ('like', 'follow');--> statement-breakpoint
CREATE INDEX "notices_post_idx" ON "notices" USING btree ("post_id") WHERE "notices"."post_id" <> 0;--> statement-breakpoint
CREATE INDEX "notices_comment_idx" ON "notices" USING btree ("comment_id") WHERE "notices"."comment_id" <> 0;