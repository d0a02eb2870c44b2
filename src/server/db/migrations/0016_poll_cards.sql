-- A post's poll rides on its row as the card shows it (posts.vote_card, the API's JSON text), so
-- a page of posts reads no poll tables: looking a poll up in votes and vote_options on every page,
-- even one without a poll, cost PostgreSQL more than the rest of its card. has_vote stays, kept
-- right and unread, for a process of the release before during a rolling restart.
ALTER TABLE "posts" ADD COLUMN "vote_card" text;--> statement-breakpoint
-- Poll `poll` as its card shows it to a visitor: every is_voted false, each written right after
-- its id so that a viewer's choices are marked by a replace (services/posts.ts); null when there
-- is no such poll. Options in their order (sort, then id); end_time in milliseconds since 1970, or null.
CREATE FUNCTION poll_card(poll int) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  select concat('{"vote_id":', v.id, ',"is_voted":false,"title":', to_json(v.title), ',"multiple":', v.multiple::text,
    ',"end_time":', coalesce(((extract(epoch from v.end_time) * 1000)::bigint)::text, 'null'), ',"total":', v.total,
    ',"options":[', (select string_agg(concat('{"option_id":', o.id, ',"is_voted":false,"text":', to_json(o.text), ',"count":', o.count, '}'), ','
      order by o.sort, o.id) from vote_options o where o.vote_id = v.id), ']}')
  from votes v where v.id = poll
$$;--> statement-breakpoint
-- The cards of the polls a statement on votes or vote_options changed, made again in its
-- transaction (has_vote with them, should a poll be deleted).
CREATE FUNCTION poll_cards_of_votes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE posts p SET vote_card = made.card, has_vote = made.card IS NOT NULL
    FROM (SELECT c.post_id, poll_card(c.id) AS card FROM changed c) made WHERE p.id = made.post_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION poll_cards_of_options() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE posts p SET vote_card = poll_card(v.id) FROM votes v WHERE v.id IN (SELECT vote_id FROM changed) AND p.id = v.post_id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER votes_card_insert AFTER INSERT ON votes REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION poll_cards_of_votes();--> statement-breakpoint
CREATE TRIGGER votes_card_update AFTER UPDATE ON votes REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION poll_cards_of_votes();--> statement-breakpoint
CREATE TRIGGER votes_card_delete AFTER DELETE ON votes REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION poll_cards_of_votes();--> statement-breakpoint
CREATE TRIGGER vote_options_card_insert AFTER INSERT ON vote_options REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION poll_cards_of_options();--> statement-breakpoint
CREATE TRIGGER vote_options_card_update AFTER UPDATE ON vote_options REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION poll_cards_of_options();--> statement-breakpoint
CREATE TRIGGER vote_options_card_delete AFTER DELETE ON vote_options REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION poll_cards_of_options();--> statement-breakpoint
-- The polls made before.
UPDATE posts p SET vote_card = poll_card(v.id) FROM votes v WHERE p.id = v.post_id;
