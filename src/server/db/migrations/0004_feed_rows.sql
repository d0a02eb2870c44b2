ALTER TABLE "posts" ADD COLUMN "attach" json DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- Posts written before this migration: their pictures (in order), then their code snippet with its
-- first 8 lines as the preview, as the feed answered them, copied from the tables that hold them
-- (only the posts that have any; the rest keep the default, no attachments).
UPDATE "posts" SET "attach" = "parts"."attach"
FROM (
	SELECT "post_id", json_agg("item" ORDER BY "kind", "sort", "image_id", "uuid") AS "attach"
	FROM (
		SELECT "post_id", 0 AS "kind", "sort", "id" AS "image_id", NULL::text AS "uuid",
			json_build_object('type', 'image', 'url', "url", 'width', "width", 'height', "height") AS "item"
		FROM "post_images"
		UNION ALL
		SELECT "post_id", 1, "sort", NULL, "uuid",
			json_build_object('type', 'code', 'uuid', "uuid", 'language', "language", 'title', "title",
				'preview', array_to_string((string_to_array("code", E'\n'))[1:8], E'\n'))
		FROM "code_snippets"
	) "items"
	GROUP BY "post_id"
) "parts"
WHERE "posts"."id" = "parts"."post_id";--> statement-breakpoint
ALTER TABLE "posts" DROP COLUMN "has_images";--> statement-breakpoint
ALTER TABLE "posts" DROP COLUMN "has_code";--> statement-breakpoint
-- A poll's options in order straight off the index (sort, then id), with no sort step.
CREATE INDEX "vote_options_vote_sort_idx" ON "vote_options" USING btree ("vote_id","sort","id");--> statement-breakpoint
DROP INDEX "vote_options_vote_idx";
