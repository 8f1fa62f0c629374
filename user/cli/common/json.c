// SPDX-License-Identifier: MIT
/*
 * JSON through json-c (json.h): the values, and the writers that lay a
 * document out.  json-c writes every key and value (strings escaped,
 * numbers as given); only the separators, line breaks and indentation
 * between members are chosen here.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "json.h"
#include "rounds.h"

struct json_object *json_new_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

struct json_object *json_new_i64(int64_t v)
{
	return json_object_new_int64(v);
}

struct json_object *json_new_flag(bool v)
{
	return json_object_new_boolean(v);
}

struct json_object *json_new_str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

struct json_object *json_new_str_or_null(const char *s)
{
	return s && s[0] ? json_object_new_string(s) : NULL;
}

struct json_object *json_new_fixed(int decimals, double v)
{
	char text[64];

	if (!isfinite(v))
		return NULL;
	/* json-c writes a double as this text: the decimals are ours. */
	snprintf(text, sizeof(text), "%.*f", decimals, v);
	return json_object_new_double_s(v, text);
}

struct json_object *json_new_ps_as_ns(uint64_t ps)
{
	char text[32];

	snprintf(text, sizeof(text), "%" PRIu64 ".%03" PRIu64, ps / 1000,
		 ps % 1000);
	return json_object_new_double_s((double)ps / 1000, text);
}

struct json_object *json_new_spread(int decimals, const struct spread *s)
{
	struct json_object *a = json_object_new_array();

	json_object_array_add(a, json_new_fixed(decimals, s->min));
	json_object_array_add(a, json_new_fixed(decimals, s->max));
	return a;
}

void json_put(struct json_object *obj, const char *key, struct json_object *v)
{
	json_object_object_add(obj, key, v);
}

/* A scalar, or a key as a string, as json-c writes it. */
static void write_scalar(FILE *f, struct json_object *v)
{
	/* NULL is json-c's null. */
	fputs(v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_NOSLASHESCAPE) :
	      "null", f);
}

static void write_key(FILE *f, const char *name)
{
	struct json_object *key = json_object_new_string(name);

	write_scalar(f, key);
	fputs(": ", f);
	json_object_put(key);
}

/* @v and everything in it on one line. */
static void write_inline(FILE *f, struct json_object *v)
{
	size_t i, n;
	bool first = true;

	if (json_object_is_type(v, json_type_array)) {
		fputc('[', f);
		n = json_object_array_length(v);
		for (i = 0; i < n; i++) {
			fputs(i ? ", " : "", f);
			write_inline(f, json_object_array_get_idx(v, i));
		}
		fputc(']', f);
	} else if (json_object_is_type(v, json_type_object)) {
		fputc('{', f);
		json_object_object_foreach(v, name, member) {
			fputs(first ? "" : ", ", f);
			write_key(f, name);
			write_inline(f, member);
			first = false;
		}
		fputc('}', f);
	} else {
		write_scalar(f, v);
	}
}

void json_emit_value(FILE *f, struct json_object *v)
{
	write_inline(f, v);
	json_object_put(v);
}

void json_emit_line(FILE *f, struct json_object *doc)
{
	write_inline(f, doc);
	fputc('\n', f);
	json_object_put(doc);
}

static bool starts_line(const char *name, const char *const *line_starts)
{
	if (!line_starts)
		return true;
	for (; *line_starts; line_starts++)
		if (!strcmp(name, *line_starts))
			return true;
	return false;
}

static bool is_array_of_objects(struct json_object *v)
{
	return json_object_is_type(v, json_type_array) &&
	       json_object_array_length(v) &&
	       json_object_is_type(json_object_array_get_idx(v, 0),
				   json_type_object);
}

/* A member's array of objects: one object a line, indented by four. */
static void write_object_lines(FILE *f, struct json_object *v)
{
	size_t i, n = json_object_array_length(v);

	fputc('[', f);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n    " : "\n    ", f);
		write_inline(f, json_object_array_get_idx(v, i));
	}
	fputs("\n  ]", f);
}

void json_emit_lines(FILE *f, struct json_object *doc,
		     const char *const *line_starts)
{
	bool first = true;

	fputc('{', f);
	json_object_object_foreach(doc, name, member) {
		if (first || starts_line(name, line_starts))
			fputs(first ? "\n  " : ",\n  ", f);
		else
			fputs(", ", f);
		first = false;
		write_key(f, name);
		if (is_array_of_objects(member))
			write_object_lines(f, member);
		else
			write_inline(f, member);
	}
	fputs("\n}\n", f);
	json_object_put(doc);
}
