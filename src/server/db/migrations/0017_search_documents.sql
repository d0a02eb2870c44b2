-- The search documents of users, topics and channels kept on their rows (stored generated
-- columns, so no write can leave one stale), and each name's folded form indexed: a search that
-- matched many of them made every matching row's document again, and folded every name to rank an
-- exact one first, which for a common word cost the database seconds per call.
DROP INDEX "channels_search_idx";--> statement-breakpoint
DROP INDEX "topics_search_idx";--> statement-breakpoint
DROP INDEX "users_search_idx";--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (search_document("name", "intro")) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "topics" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (search_document("name", '')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (search_document("nick", '')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "channels_search_fold_idx" ON "channels" USING btree (search_fold("name"));--> statement-breakpoint
CREATE INDEX "topics_search_fold_idx" ON "topics" USING btree (search_fold("name"));--> statement-breakpoint
CREATE INDEX "users_search_fold_idx" ON "users" USING btree (search_fold("nick"));--> statement-breakpoint
CREATE INDEX "channels_search_idx" ON "channels" USING gin ("search");--> statement-breakpoint
CREATE INDEX "topics_search_idx" ON "topics" USING gin ("search");--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin ("search");
