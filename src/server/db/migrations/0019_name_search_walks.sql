-- A name search (services/search.ts, rankedNameMatches) walks the most followed users and the most
-- used topics in these orders, looking for matches, instead of ranking every match.
CREATE INDEX "topics_popular_idx" ON "topics" USING btree ("post_count" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "users_popular_idx" ON "users" USING btree ("follower_count" DESC NULLS LAST,"id");