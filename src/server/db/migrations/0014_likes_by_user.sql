-- A viewer's likes among a page of posts, read as one range (services/posts.ts): the user index gains the target.
DROP INDEX "likes_user_idx";--> statement-breakpoint
CREATE INDEX "likes_user_idx" ON "likes" USING btree ("user_id","target_type","target_id");