DROP INDEX "idempotency_user_client_idx";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "request_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "likes" ADD COLUMN "id" bigserial NOT NULL;--> statement-breakpoint
-- Likes of a database made before this migration are numbered in the order they were made, so likers page newest first.
UPDATE "likes" SET "id" = "ordered"."n" FROM (
  SELECT "target_type", "target_id", "user_id", row_number() OVER (ORDER BY "created_at", "target_type", "target_id", "user_id") AS "n" FROM "likes"
) AS "ordered"
WHERE "likes"."target_type" = "ordered"."target_type" AND "likes"."target_id" = "ordered"."target_id" AND "likes"."user_id" = "ordered"."user_id";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('likes', 'id'), coalesce((SELECT max("id") FROM "likes"), 0) + 1, false);--> statement-breakpoint
-- One complaint per user and target: keep the first of any earlier duplicates.
DELETE FROM "complaints" AS "c" USING "complaints" AS "first"
WHERE "first"."user_id" = "c"."user_id" AND "first"."target_type" = "c"."target_type" AND "first"."target_id" = "c"."target_id" AND "first"."id" < "c"."id";--> statement-breakpoint
CREATE UNIQUE INDEX "complaints_user_target_idx" ON "complaints" USING btree ("user_id","target_type","target_id");--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_user_kind_client_idx" ON "idempotency_keys" USING btree ("user_id","kind","client_id");--> statement-breakpoint
CREATE INDEX "idempotency_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "likes_id_idx" ON "likes" USING btree ("id");--> statement-breakpoint
CREATE INDEX "likes_target_order_idx" ON "likes" USING btree ("target_type","target_id","id" DESC NULLS LAST);