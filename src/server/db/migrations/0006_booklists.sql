-- Joint book lists (/booklist/{code}): new tables only, nothing of an existing database changes.
-- The demo's two lists are seeded (db/seed.ts), also into a demo database made before them.
CREATE TABLE "booklist_books" (
	"id" serial PRIMARY KEY NOT NULL,
	"booklist_id" integer NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"author" text NOT NULL,
	"cover_url" text NOT NULL,
	"cover_width" integer NOT NULL,
	"cover_height" integer NOT NULL,
	"reason" text NOT NULL,
	"link_type" text NOT NULL,
	"link_title" text NOT NULL,
	"link_id" integer,
	"link_url" text,
	CONSTRAINT "booklist_books_link_check" CHECK (("booklist_books"."link_type" in ('course', 'column') and "booklist_books"."link_id" is not null) or ("booklist_books"."link_type" = 'reading' and "booklist_books"."link_url" is not null))
);
--> statement-breakpoint
CREATE TABLE "booklists" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"title" text NOT NULL,
	"intro" text DEFAULT '' NOT NULL,
	"cover_url" text NOT NULL,
	"cover_width" integer NOT NULL,
	"cover_height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booklists_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "booklist_books" ADD CONSTRAINT "booklist_books_booklist_id_booklists_id_fk" FOREIGN KEY ("booklist_id") REFERENCES "public"."booklists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booklist_books_list_idx" ON "booklist_books" USING btree ("booklist_id","sort");