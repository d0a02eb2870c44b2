-- The search documents and queries (0010_search.sql) made as they were, lexeme for lexeme, at a
-- fraction of the cost: a post's document is made in post/add's statement, a query in each
-- search's, and a SQL function that cannot be inlined (these read subqueries) is planned again at
-- every call. PL/pgSQL keeps its plans for the session, cuts each run of CJK characters once into an
-- array instead of taking a substring at every position, and hands the lexemes to array_to_tsvector
-- instead of writing and parsing tsvector text. The stored documents and the indexes on these
-- functions stay valid: what they return is unchanged (tests/api/migrations.test.ts compares them
-- with the previous main's on both engines).

-- The text as it is matched: NFKC, then lower case (ASCII by the C collation, other Latin, Greek
-- and Cyrillic letters by the table, read only for a text that holds one of them).
CREATE OR REPLACE FUNCTION search_fold(input text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
  folded text := lower(normalize(input, NFKC) COLLATE "C");
BEGIN
  IF folded ~ '[\u00c0-\u04ff]' THEN
    RETURN translate(folded, 'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞĀĂĄĆĈĊČĎĐĒĔĖĘĚĜĞĠĢĤĦĨĪĬĮĴĶĹĻĽŁŃŅŇŊŌŎŐŒŔŖŘŚŜŞŠŢŤŦŨŪŬŮŰŲŴŶŸŹŻŽͰͲͶͿΆΈΉΊΌΎΏΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΪΫϏϘϚϜϞϠϢϤϦϨϪϬϮϷϺϽϾϿЀЁЂЃЄЅІЇЈЉЊЋЌЍЎЏАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯѠѢѤѦѨѪѬѮѰѲѴѶѸѺѼѾҀҊҌҎҐҒҔҖҘҚҜҞҠҢҤҦҨҪҬҮҰҲҴҶҸҺҼҾӀӁӃӅӇӉӋӍӐӒӔӖӘӚӜӞӠӢӤӦӨӪӬӮӰӲӴӶӸӺӼӾ', 'àáâãäåæçèéêëìíîïðñòóôõöøùúûüýþāăąćĉċčďđēĕėęěĝğġģĥħĩīĭįĵķĺļľłńņňŋōŏőœŕŗřśŝşšţťŧũūŭůűųŵŷÿźżžͱͳͷϳάέήίόύώαβγδεζηθικλμνξοπρστυφχψωϊϋϗϙϛϝϟϡϣϥϧϩϫϭϯϸϻͻͼͽѐёђѓєѕіїјљњћќѝўџабвгдежзийклмнопрстуфхцчшщъыьэюяѡѣѥѧѩѫѭѯѱѳѵѷѹѻѽѿҁҋҍҏґғҕҗҙқҝҟҡңҥҧҩҫҭүұҳҵҷҹһҽҿӏӂӄӆӈӊӌӎӑӓӕӗәӛӝӟӡӣӥӧөӫӭӯӱӳӵӷӹӻӽӿ');
  END IF;
  RETURN folded;
END $$;--> statement-breakpoint
-- The runs a text is matched by: group 1 a run of CJK characters (kana and Hangul too), else group
-- 2 a word. A constant, inlined into the plans that use it.
CREATE FUNCTION search_run_pattern() RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT '([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\U00020000-\U0003134f]+)|([0-9a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f\u0370-\u03ff\u0400-\u04ff]+)'::text $$;--> statement-breakpoint
-- The lexemes of a text added to `lexemes`: each pair of neighbouring CJK characters and the last
-- character of each CJK run, each word (its first 64 characters); with `marked`, each once more
-- after a '#' (a head's: 0010_search.sql says why).
CREATE FUNCTION search_lexemes_into(input text, marked boolean, lexemes text[]) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
  run text[];
  chars text[];
  lexeme text;
  n integer;
BEGIN
  IF input IS NULL THEN
    RETURN lexemes;
  END IF;
  FOR run IN SELECT regexp_matches(public.search_fold(input), public.search_run_pattern(), 'g') LOOP
    IF run[1] IS NULL THEN
      lexeme := left(run[2], 64);
      lexemes := lexemes || lexeme;
      IF marked THEN
        lexemes := lexemes || ('#' || lexeme);
      END IF;
    ELSE
      chars := string_to_array(run[1], NULL);
      n := cardinality(chars);
      FOR i IN 1 .. n LOOP
        lexeme := CASE WHEN i < n THEN chars[i] || chars[i + 1] ELSE chars[n] END;
        lexemes := lexemes || lexeme;
        IF marked THEN
          lexemes := lexemes || ('#' || lexeme);
        END IF;
      END LOOP;
    END IF;
  END LOOP;
  RETURN lexemes;
END $$;--> statement-breakpoint
-- The document of a text: the lexemes of head and body, and the head's once more marked.
CREATE OR REPLACE FUNCTION search_document(head text, body text) RETURNS tsvector LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
  RETURN array_to_tsvector(public.search_lexemes_into(body, false, public.search_lexemes_into(head, true, '{}')));
END $$;--> statement-breakpoint
-- A post's document: the head is its first line, its topics' names and its code snippets' titles;
-- the body the rest of its content. Reads the topics: called as the post is written.
CREATE OR REPLACE FUNCTION post_search_document(content text, topic_ids integer[], attach json) RETURNS tsvector LANGUAGE plpgsql STABLE PARALLEL SAFE
AS $$
DECLARE
  trimmed text := ltrim(content, E' \t\r\n');
  first_line text := split_part(trimmed, E'\n', 1);
  topic_names text;
  code_titles text;
BEGIN
  IF cardinality(topic_ids) > 0 THEN
    SELECT string_agg(name, E'\n') INTO topic_names FROM public.topics WHERE id = any(topic_ids);
  END IF;
  IF json_array_length(attach) > 0 THEN
    SELECT string_agg(item->>'title', E'\n') INTO code_titles FROM json_array_elements(attach) item WHERE item->>'type' = 'code';
  END IF;
  RETURN public.search_document(concat_ws(E'\n', first_line, topic_names, code_titles), substr(trimmed, char_length(first_line) + 2));
END $$;--> statement-breakpoint
-- A query: every bigram of its CJK runs (a one-character run as a prefix) and every word as a
-- prefix, all of them required, in the order they come; `head` asks them all of the head (its
-- marked lexemes). NULL when the query has none (only punctuation or spaces): it matches nothing.
CREATE OR REPLACE FUNCTION search_query(input text, head boolean) RETURNS tsquery LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
  run text[];
  chars text[];
  n integer;
  mark text := CASE WHEN head THEN '#' ELSE '' END;
  terms text[] := '{}';
BEGIN
  FOR run IN SELECT regexp_matches(public.search_fold(input), public.search_run_pattern(), 'g') LOOP
    IF run[1] IS NULL THEN
      terms := terms || ('''' || mark || left(run[2], 64) || ''':*');
    ELSE
      chars := string_to_array(run[1], NULL);
      n := cardinality(chars);
      IF n = 1 THEN
        terms := terms || ('''' || mark || chars[1] || ''':*');
      END IF;
      FOR i IN 1 .. n - 1 LOOP
        terms := terms || ('''' || mark || chars[i] || chars[i + 1] || '''');
      END LOOP;
    END IF;
  END LOOP;
  IF cardinality(terms) = 0 THEN
    RETURN NULL;
  END IF;
  RETURN array_to_string(terms, ' & ')::tsquery;
END $$;--> statement-breakpoint
DROP FUNCTION search_lexemes(text);--> statement-breakpoint
DROP FUNCTION search_runs(text);
