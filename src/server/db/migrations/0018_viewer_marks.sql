-- What a page marks for its viewer (their likes of posts, the users they follow, their poll
-- choices) has a version per user, moved in the same transaction as any change to it: a process
-- keeping a viewer's marks in memory (services/viewer-marks.ts) reads a page only at the version
-- it read them at. A user with no row is at version 0.
CREATE TABLE "viewer_marks" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
-- A viewer's poll choices, read with their other marks.
CREATE INDEX "vote_records_user_idx" ON "vote_records" USING btree ("user_id","vote_id","option_id");--> statement-breakpoint
-- The row's user_id (a like's, a poll choice's) or follower_id moved a version.
CREATE FUNCTION viewer_marks_of_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO viewer_marks AS m (user_id, version) VALUES (CASE TG_OP WHEN 'DELETE' THEN OLD.user_id ELSE NEW.user_id END, 1) ON CONFLICT (user_id) DO UPDATE SET version = m.version + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION viewer_marks_of_follower() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO viewer_marks AS m (user_id, version) VALUES (CASE TG_OP WHEN 'DELETE' THEN OLD.follower_id ELSE NEW.follower_id END, 1) ON CONFLICT (user_id) DO UPDATE SET version = m.version + 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER likes_viewer_marks_insert AFTER INSERT ON likes FOR EACH ROW WHEN (NEW.target_type = 'post') EXECUTE FUNCTION viewer_marks_of_user();--> statement-breakpoint
CREATE TRIGGER likes_viewer_marks_delete AFTER DELETE ON likes FOR EACH ROW WHEN (OLD.target_type = 'post') EXECUTE FUNCTION viewer_marks_of_user();--> statement-breakpoint
CREATE TRIGGER user_follows_viewer_marks AFTER INSERT OR DELETE ON user_follows FOR EACH ROW EXECUTE FUNCTION viewer_marks_of_follower();--> statement-breakpoint
CREATE TRIGGER vote_records_viewer_marks AFTER INSERT OR DELETE ON vote_records FOR EACH ROW EXECUTE FUNCTION viewer_marks_of_user();
