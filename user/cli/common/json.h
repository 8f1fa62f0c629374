/* SPDX-License-Identifier: MIT */
/*
 * The JSON every subcommand writes: each document is built as json-c
 * objects and written by json-c (json.c), never printed piece by piece,
 * so that escaping and syntax are the library's.
 */
#ifndef WSC_CLI_JSON_H
#define WSC_CLI_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

struct spread;

/*
 * Values for json_object_object_add() and json_object_array_add().  A
 * NULL value is written as null: json_new_fixed() of a value that is not
 * finite, json_new_str() of NULL.  (json-c's own constructors return NULL
 * when out of memory, which would show as null too: a CLI that cannot get
 * a few bytes fails soon after anyway.)
 */
struct json_object *json_new_u64(uint64_t v);
struct json_object *json_new_i64(int64_t v);
struct json_object *json_new_flag(bool v);
struct json_object *json_new_str(const char *s);
/* @v with exactly @decimals decimals ("%.*f"), or null when not finite. */
struct json_object *json_new_fixed(int decimals, double v);
/* Picoseconds as nanoseconds with three decimals, exact: 1234567 is 1234.567. */
struct json_object *json_new_ps_as_ns(uint64_t ps);
/* [min, max] of @s, each with json_new_fixed(). */
struct json_object *json_new_spread(int decimals, const struct spread *s);
/* @s as a string, or null when empty. */
struct json_object *json_new_str_or_null(const char *s);

/* json_object_object_add() under a shorter name, for the many fields. */
void json_put(struct json_object *obj, const char *key, struct json_object *v);

/*
 * Write @doc and a newline to @f, then drop it.  json-c writes every key
 * and value; the layout is the one wsc has always had, so that a line a
 * reader greps stays one line:
 *
 * json_emit_line():  the whole document on one line, as
 *                    {"a": 1, "b": [2, 3], "c": {"d": null}}
 * json_emit_lines(): the document's members on lines of their own, a
 *                    member listed in @line_starts beginning a line and
 *                    any other following the one before it on its line
 *                    (@line_starts NULL: every member begins a line); a
 *                    member that is an array of objects has one object a
 *                    line; everything deeper on one line as above.
 */
void json_emit_line(FILE *f, struct json_object *doc);
/* One value as json_emit_line() writes it, without the newline; dropped. */
void json_emit_value(FILE *f, struct json_object *v);
void json_emit_lines(FILE *f, struct json_object *doc,
		     const char *const *line_starts);

#endif /* WSC_CLI_JSON_H */
