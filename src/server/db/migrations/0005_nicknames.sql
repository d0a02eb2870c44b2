-- Nicknames are unique whatever their case from now on (a user sets theirs in the user centre).
-- Users who already share one (two phones ending in the same four digits got the same default)
-- keep it for the first of them; each later one gets its id appended, and may change it.
UPDATE "users" SET "nick" = "users"."nick" || '_' || "users"."id"
FROM (SELECT "id", row_number() OVER (PARTITION BY lower("nick") ORDER BY "id") AS "n" FROM "users") "ranked"
WHERE "users"."id" = "ranked"."id" AND "ranked"."n" > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "users_nick_lower_unique" ON "users" USING btree (lower("nick"));
