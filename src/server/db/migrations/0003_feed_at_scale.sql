ALTER TABLE "posts" ADD COLUMN "channel_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "topic_ids" integer[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "has_images" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "has_code" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "has_vote" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "vote_records_option_user_idx" ON "vote_records" USING btree ("option_id","user_id");--> statement-breakpoint
-- Posts written before this migration: what they are made of, copied from the tables that hold it (one pass over posts).
UPDATE "posts" SET
	"channel_ids" = ARRAY(SELECT "channel_id" FROM "post_channels" WHERE "post_id" = "posts"."id" ORDER BY "channel_id"),
	"topic_ids" = ARRAY(SELECT "topic_id" FROM "post_topics" WHERE "post_id" = "posts"."id" ORDER BY "topic_id"),
	"has_images" = EXISTS (SELECT 1 FROM "post_images" WHERE "post_id" = "posts"."id"),
	"has_code" = EXISTS (SELECT 1 FROM "code_snippets" WHERE "post_id" = "posts"."id"),
	"has_vote" = EXISTS (SELECT 1 FROM "votes" WHERE "post_id" = "posts"."id");
