-- A notice carries the previews its list shows (services/notices.ts), stored when it is made: the
-- list reads the notices alone, not each one's post and comments.
ALTER TABLE "notices" ADD COLUMN "target_excerpt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "content_excerpt" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "notices_target_comment_idx" ON "notices" USING btree ("target_comment_id") WHERE "notices"."target_comment_id" <> 0;--> statement-breakpoint
-- The first `chars` characters of a text (of its first 400), each run of white space (JavaScript's
-- \s: the ASCII ones, no-break and ideographic spaces, the Unicode spaces and separators) one
-- space, none at either end. Spelled out rather than \s, whose meaning follows the database's locale.
CREATE FUNCTION notice_excerpt(body text, chars int) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select coalesce(left(btrim(regexp_replace(left(body, 400),
    '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', 'g'), ' '), chars), '')
$$;--> statement-breakpoint
-- The notices made before: their previews as the list read them then (a comment a moderator hid
-- shows only to its author; a deleted answered comment shows nothing).
UPDATE "notices" n SET
  "target_excerpt" = coalesce(CASE
    WHEN n.type = 'comment' OR (n.type = 'like' AND n.comment_id = 0) THEN (SELECT notice_excerpt(p.content, 60) FROM posts p WHERE p.id = n.post_id)
    WHEN n.type = 'reply' THEN (SELECT notice_excerpt(c.content, 60) FROM comments c WHERE c.id = n.target_comment_id AND c.deleted_at IS NULL)
    WHEN n.type = 'like' THEN (SELECT notice_excerpt(c.content, 60) FROM comments c
      WHERE c.id = n.comment_id AND c.deleted_at IS NULL AND (c.hidden_at IS NULL OR c.user_id = n.user_id))
  END, ''),
  "content_excerpt" = coalesce(CASE WHEN n.type IN ('comment', 'reply') THEN (SELECT notice_excerpt(c.content, 60) FROM comments c
    WHERE c.id = n.comment_id AND c.deleted_at IS NULL AND (c.hidden_at IS NULL OR c.user_id = n.user_id)) END, '')
WHERE n.type IN ('comment', 'reply', 'like');
