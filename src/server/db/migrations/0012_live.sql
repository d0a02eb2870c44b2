-- The live stream (services/live.ts): what a reader's open app learns at once is told here, by
-- NOTIFY on the channel `live`, in the transaction that caused it (delivered at its commit, never
-- for a write rolled back), so that every process, whichever one wrote, tells its own streams.
-- Each event has an id from one sequence (a stream's Last-Event-ID) and is a JSON object of at
-- most a few numbers (NOTIFY takes 8,000 bytes); a statement of many rows tells one event for all.
CREATE SEQUENCE "live_events_seq";--> statement-breakpoint
-- A new post: its id and channels (a feed on screen knows whether it is one of its own).
CREATE FUNCTION live_posts_added() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added_count int;
BEGIN
  SELECT count(*) INTO added_count FROM added;
  IF added_count = 1 THEN
    PERFORM pg_notify('live', json_build_object('id', nextval('live_events_seq'), 'kind', 'post', 'post_id', a.id, 'channel_ids', a.channel_ids)::text) FROM added a;
  ELSIF added_count > 1 THEN
    PERFORM pg_notify('live', json_build_object('id', nextval('live_events_seq'), 'kind', 'posts')::text);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER posts_live AFTER INSERT ON posts REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION live_posts_added();--> statement-breakpoint
-- A user's notices changed (one came, was read, was taken back): their unread count is read again.
-- Up to 100 users by name; more (a seed, a moderator's sweep) as one event for every user.
CREATE FUNCTION live_notices_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  user_count int;
BEGIN
  SELECT count(DISTINCT user_id) INTO user_count FROM changed;
  IF user_count > 100 THEN
    PERFORM pg_notify('live', json_build_object('id', nextval('live_events_seq'), 'kind', 'notices')::text);
  ELSE
    PERFORM pg_notify('live', json_build_object('id', nextval('live_events_seq'), 'kind', 'notice', 'user_id', u.user_id)::text)
      FROM (SELECT DISTINCT user_id FROM changed ORDER BY user_id) u;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER notices_live_insert AFTER INSERT ON notices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION live_notices_changed();--> statement-breakpoint
CREATE TRIGGER notices_live_update AFTER UPDATE ON notices REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION live_notices_changed();--> statement-breakpoint
CREATE TRIGGER notices_live_delete AFTER DELETE ON notices REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION live_notices_changed();--> statement-breakpoint
-- A ticket ended by a login on another device of the same kind (HTTP 452): its stream says so at once.
CREATE FUNCTION live_tickets_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('live', json_build_object('id', nextval('live_events_seq'), 'kind', 'ended', 'ticket_id', e.id)::text)
    FROM ended e JOIN was w ON w.id = e.id
    WHERE e.ended_reason = 'mutex' AND w.ended_at IS NULL;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tickets_live AFTER UPDATE ON tickets REFERENCING OLD TABLE AS was NEW TABLE AS ended FOR EACH STATEMENT EXECUTE FUNCTION live_tickets_ended();
