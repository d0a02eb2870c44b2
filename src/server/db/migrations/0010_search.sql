-- Search (services/search.ts). PostgreSQL's parsers and pg_trgm (under the C locale) do not see CJK
-- text as words, and neither Debian's PostgreSQL nor PGlite has a Chinese tokenizer: text is cut
-- into overlapping bigrams of CJK characters and whole Latin, Greek, Cyrillic and digit words,
-- folded (NFKC, then lower case by a fixed table, the same on every locale), kept as a tsvector
-- and found through a GIN index. The functions are IMMUTABLE for the expression indexes below:
-- a change to them must come with a migration that rebuilds those indexes and posts.search. They
-- name each other with their schema: an index build runs them with only pg_catalog on the path.

-- The text as it is matched: NFKC (full-width letters and digits become ASCII), then lower case:
-- ASCII by the C collation, other Latin, Greek and Cyrillic letters by the table (read only for a
-- text that holds one of them: most hold none, and the table is the costliest step).
CREATE FUNCTION search_fold(input text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT CASE WHEN folded ~ '[\u00c0-\u04ff]' THEN translate(folded, 'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮĴĶĹĻĽŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽͰͲͶͿΆΈΉΊΌΎΏΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫϏϘϚϜϞϠϢϤϦϨϪϬϮϷϺϽϾϿЀЁЂЃЄЅІЇЈЉЊЋЌЍЎЏАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯѠѢѤѦѨѪѬѮѰѲѴѶѸѺѼѾҀҊҌҎҐҒҔҖҘҚҜҞҠҢҤҦҨҪҬҮҰҲҴҶҸҺҼҾӀӁӃӅӇӉӋӍӐӒӔӖӘӚӜӞӠӢӤӦӨӪӬӮӰӲӴӶӸӺӼӾ', 'àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįĵķĺļľłńņňŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷÿźżžͱͳͷϳάέήίόύώαβγδεζηθικλμνξοπρστυφχψωϊϋϗϙϛϝϟϡϣϥϧϩϫϭϯϸϻͻͼͽѐёђѓєѕіїјљњћќѝўџабвгдежзийклмнопрстуфхцчшщъыьэюяѡѣѥѧѩѫѭѯѱѳѵѷѹѻѽѿҁҋҍҏґғҕҗҙқҝҟҡңҥҧҩҫҭүұҳҵҷҹһҽҿӏӂӄӆӈӊӌӎӑӓӕӗәӛӝӟӡӣӥӧөӫӭӯӱӳӵӷӹӻӽӿ') ELSE folded END
  FROM (SELECT lower(normalize(input, NFKC) COLLATE "C") AS folded) x $$;--> statement-breakpoint
-- The runs a text is matched by: each run of CJK characters (kana and Hangul too), each word.
CREATE FUNCTION search_runs(input text) RETURNS TABLE (run text, cjk boolean) LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT m[1], m[1] ~ '^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0003134f]'
  FROM regexp_matches(public.search_fold(input), '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0003134f]+|[0-9a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f\u0370-\u03ff\u0400-\u04ff]+', 'g') AS m $$;--> statement-breakpoint
-- A text's lexemes: each pair of neighbouring CJK characters and the last character of each run
-- (what a one-character query finds as a prefix), and each word (its first 64 characters: the
-- longest query; a lexeme is at most 2 KB).
CREATE FUNCTION search_lexemes(input text) RETURNS SETOF text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT x.lexeme FROM public.search_runs(input) r CROSS JOIN LATERAL (
    SELECT substr(r.run, i, 2) AS lexeme FROM generate_series(1, char_length(r.run) - 1) i WHERE r.cjk
    UNION ALL SELECT right(r.run, 1) WHERE r.cjk
    UNION ALL SELECT left(r.run, 64) WHERE NOT r.cjk) x $$;--> statement-breakpoint
-- The document of a text: the lexemes of head and body, and the head's once more marked with a
-- leading '#' (a character no run holds): a title or a name is matched, and ranked first, by its
-- own lexemes, whose frequency the planner's statistics then know apart from the body's (a word
-- common in bodies and rare in heads is no longer taken for common in heads). Written as
-- tsvector text, whose input parses no words: a lexeme holds only the characters of the runs
-- above, never a quote or a backslash.
-- (The head's lexemes are cut once and written twice; tsvector's input drops repeated lexemes.)
CREATE FUNCTION search_document(head text, body text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT coalesce((SELECT string_agg(lexemes, ' ')
    FROM (SELECT '''' || lexeme || ''' ''#' || lexeme || '''' AS lexemes FROM public.search_lexemes(head) lexeme
      UNION ALL SELECT '''' || lexeme || '''' FROM public.search_lexemes(body) lexeme) x), '')::tsvector $$;--> statement-breakpoint
-- A query: every bigram of its CJK runs (a one-character run as a prefix) and every word as a
-- prefix, all of them required; `head` asks them all of the head (its marked lexemes). NULL when
-- the query has none (only punctuation or spaces): it matches nothing.
CREATE FUNCTION search_query(input text, head boolean) RETURNS tsquery LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT string_agg('''' || CASE WHEN head THEN '#' ELSE '' END || x.lexeme || ''''
    || CASE WHEN x.prefix THEN ':*' ELSE '' END, ' & ')::tsquery
  FROM public.search_runs(input) r CROSS JOIN LATERAL (
    SELECT substr(r.run, i, 2) AS lexeme, false AS prefix FROM generate_series(1, char_length(r.run) - 1) i WHERE r.cjk
    UNION ALL SELECT r.run, true WHERE r.cjk AND char_length(r.run) = 1
    UNION ALL SELECT left(r.run, 64), true WHERE NOT r.cjk) x $$;--> statement-breakpoint
-- A post's document: the head is its first line, its topics' names and its code snippet's title;
-- the body the rest of its content. Reads the topics: called as the post is written.
CREATE FUNCTION post_search_document(content text, topic_ids integer[], attach json) RETURNS tsvector LANGUAGE sql STABLE PARALLEL SAFE
AS $$ SELECT public.search_document(concat_ws(E'\n', split_part(ltrim(content, E' \t\r\n'), E'\n', 1),
    (SELECT string_agg(name, E'\n') FROM public.topics WHERE id = any(topic_ids)),
    (SELECT string_agg(item->>'title', E'\n') FROM json_array_elements(attach) item WHERE item->>'type' = 'code')),
  substr(ltrim(content, E' \t\r\n'), char_length(split_part(ltrim(content, E' \t\r\n'), E'\n', 1)) + 2)) $$;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "search" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
-- Posts written before this migration, deleted ones too (nothing reads theirs), then the index.
UPDATE "posts" SET "search" = post_search_document("content", "topic_ids", "attach");--> statement-breakpoint
CREATE INDEX "posts_search_idx" ON "posts" USING gin ("search") WHERE "posts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "channels_search_idx" ON "channels" USING gin (search_document("name", "intro"));--> statement-breakpoint
CREATE INDEX "topics_search_idx" ON "topics" USING gin (search_document("name", ''));--> statement-breakpoint
CREATE INDEX "users_search_idx" ON "users" USING gin (search_document("nick", ''));
