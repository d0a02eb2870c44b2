-- A viewer's likes among a page of posts, read as one range (services/posts.ts): the user index gains the target.
-- The unique index on likes' id served no read (likers are paged by likes_target_order_idx): one index less per like.
DROP INDEX "likes_id_idx";--> statement-breakpoint
DROP INDEX "likes_user_idx";--> statement-breakpoint
CREATE INDEX "likes_user_idx" ON "likes" USING btree ("user_id","target_type","target_id");