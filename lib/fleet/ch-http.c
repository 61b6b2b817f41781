// SPDX-License-Identifier: GPL-2.0-only
/*
 * ch-http.c - a ClickHouse server's HTTP interface through libcurl: one POST
 * a statement, the body streamed for inserts, the server's error text (or
 * curl's) as one line in tm_last_error().
 */
#include <ctype.h>
#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "fleet-internal.h"

struct tm_ch {
	char	*base;		/* http://HOST:PORT/?database=DB */
	char	*root;		/* http://HOST:PORT/ */
	char	*userpwd;	/* USER[:PASSWORD] of the URL, or NULL */
	char	name[400];	/* HOST:PORT/DB */
	char	db[128];
	CURL	*curl;
};

/* A request's answer: what goes to out, or the error text kept for the message. */
struct ch_reply {
	CURL		*curl;
	FILE		*out;		/* where a 200 answer goes; NULL: text */
	struct tm_buf	text;		/* an error answer, or the answer without out */
	int		out_err;	/* errno of a failed write to out */
};

struct ch_body {
	tm_ch_fill_fn	fill;
	void		*ctx;
	bool		failed;		/* fill() failed: its message is the one */
};

static pthread_once_t ch_once = PTHREAD_ONCE_INIT;
static CURLcode ch_init_rc;

static void ch_global_init(void)
{
	ch_init_rc = curl_global_init(CURL_GLOBAL_NOTHING);
}

/* HOST[:PORT][/DB] after the scheme; [USER[:PASS]@] before HOST. */
static int ch_parse(struct tm_ch *ch, const char *rest)
{
	const char *at = strchr(rest, '@'), *slash, *host;
	char hostport[256];
	size_t n;

	if (at && (!strchr(rest, '/') || at < strchr(rest, '/'))) {
		ch->userpwd = strndup(rest, at - rest);
		if (!ch->userpwd)
			return -1;
		host = at + 1;
	} else {
		host = rest;
	}
	slash = strchr(host, '/');
	n = slash ? (size_t)(slash - host) : strlen(host);
	if (!n || n >= sizeof(hostport) - 8 || strpbrk(host, "?#"))
		return -1;
	memcpy(hostport, host, n);
	hostport[n] = '\0';
	if (!strchr(hostport, ':'))
		strcat(hostport, ":8123");
	else if (strspn(strchr(hostport, ':') + 1, "0123456789") !=
		 strlen(strchr(hostport, ':') + 1) || !strchr(hostport, ':')[1])
		return -1;
	/* a database name cut to fit would load into another database */
	if (snprintf(ch->db, sizeof(ch->db), "%s", slash && slash[1] ? slash + 1 : "default") >=
	    (int)sizeof(ch->db))
		return -1;
	for (const char *p = ch->db; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return -1;
	snprintf(ch->name, sizeof(ch->name), "%s/%s", hostport, ch->db);
	if (asprintf(&ch->base, "http://%s/?database=%s", hostport, ch->db) < 0) {
		ch->base = NULL;
		return -1;
	}
	if (asprintf(&ch->root, "http://%s/", hostport) < 0) {
		ch->root = NULL;
		return -1;
	}
	return 0;
}

struct tm_ch *tm_ch_open(const char *url)
{
	struct tm_ch *ch;
	const char *rest;

	if (!strncmp(url, "http://", 7))
		rest = url + 7;
	else if (!strncmp(url, "clickhouse://", 13))
		rest = url + 13;
	else
		return tm_failx(EINVAL, "%s: not a ClickHouse URL (http://HOST:PORT/DB)", url),
		       NULL;
	pthread_once(&ch_once, ch_global_init);
	if (ch_init_rc != CURLE_OK)
		return tm_failx(EIO, "libcurl: %s", curl_easy_strerror(ch_init_rc)), NULL;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return tm_fail(ENOMEM, "%s", url), NULL;
	if (ch_parse(ch, rest) < 0) {
		tm_ch_close(ch);
		return tm_failx(EINVAL, "%s: not a ClickHouse URL (http://HOST:PORT/DB, "
				"DB of letters, digits and _)", url), NULL;
	}
	ch->curl = curl_easy_init();
	if (!ch->curl) {
		tm_ch_close(ch);
		return tm_failx(ENOMEM, "%s: libcurl could not start", url), NULL;
	}
	return ch;
}

void tm_ch_close(struct tm_ch *ch)
{
	if (!ch)
		return;
	if (ch->curl)
		curl_easy_cleanup(ch->curl);
	free(ch->base);
	free(ch->root);
	free(ch->userpwd);
	free(ch);
}

const char *tm_ch_name(const struct tm_ch *ch)
{
	return ch->name;
}

const char *tm_ch_db(const struct tm_ch *ch)
{
	return ch->db;
}

static size_t ch_write_cb(char *p, size_t size, size_t n, void *arg)
{
	struct ch_reply *r = arg;
	size_t len = size * n;
	long status = 0;

	curl_easy_getinfo(r->curl, CURLINFO_RESPONSE_CODE, &status);
	if (!r->out || status != 200) {
		/* an error's text is kept for its message, whatever out is */
		if (r->text.len < 65536)
			tm_buf_put(&r->text, p, len);
		return len;
	}
	if (fwrite(p, 1, len, r->out) != len) {
		r->out_err = errno ? errno : EIO;
		return 0;
	}
	return len;
}

static size_t ch_read_cb(char *buf, size_t size, size_t n, void *arg)
{
	struct ch_body *b = arg;
	ssize_t got = b->fill(b->ctx, (uint8_t *)buf, size * n);

	if (got < 0) {
		b->failed = true;
		return CURL_READFUNC_ABORT;
	}
	return got;
}

/* The server's text as one line: whitespace runs one space, no trailing space. */
static void ch_one_line(struct tm_buf *t)
{
	size_t j = 0;

	for (size_t i = 0; i < t->len; i++) {
		unsigned char c = t->data[i];

		if (isspace(c) || iscntrl(c)) {
			if (j && t->data[j - 1] != ' ')
				t->data[j++] = ' ';
			continue;
		}
		t->data[j++] = c;
	}
	while (j && t->data[j - 1] == ' ')
		j--;
	t->len = j;
	tm_buf_put(t, "", 1);
}

/* The first words of a statement, for messages: "INSERT INTO `sched_switch`". */
static void ch_what(char *out, size_t cap, const char *sql)
{
	size_t n = strcspn(sql, "(\n");

	if (n >= cap)
		n = cap - 1;
	memcpy(out, sql, n);
	while (n && out[n - 1] == ' ')
		n--;
	out[n] = '\0';
}

static void ch_setup(struct tm_ch *ch, const char *url, struct ch_reply *r, char *errbuf)
{
	CURL *c = ch->curl;

	curl_easy_reset(c);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	/* a server that stops answering: 60 s below one byte a second */
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, ch_write_cb);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	if (ch->userpwd)
		curl_easy_setopt(c, CURLOPT_USERPWD, ch->userpwd);
}

/* Perform the request set up; the one-line message on failure. */
static int ch_perform(struct tm_ch *ch, const char *sql, struct ch_reply *r,
		      const struct ch_body *body, char *errbuf)
{
	CURLcode rc = curl_easy_perform(ch->curl);
	char what[96];
	long status = 0;

	ch_what(what, sizeof(what), sql);
	if (body && body->failed)
		return tm_fail_prefix("%s: %s", ch->name, what);
	if (rc != CURLE_OK && r->out_err)
		return tm_fail(r->out_err, "%s: %s: writing the answer", ch->name, what);
	if (rc != CURLE_OK)
		return tm_failx(rc == CURLE_COULDNT_CONNECT ? ECONNREFUSED : EIO,
				"%s: %s: %s", ch->name, what,
				errbuf[0] ? errbuf : curl_easy_strerror(rc));
	curl_easy_getinfo(ch->curl, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		ch_one_line(&r->text);
		return tm_failx(EPROTO, "%s: %s: server refused (HTTP %ld): %s", ch->name,
				what, status, r->text.len > 1 ? (char *)r->text.data : "no text");
	}
	return 0;
}

/*
 * One POST of sql as the body (a query) or in the URL (an insert with body),
 * to url, or the database's URL when NULL.
 */
static int ch_request_to(struct tm_ch *ch, const char *base, const char *sql, FILE *out,
			 struct ch_body *body, struct tm_buf *answer)
{
	char errbuf[CURL_ERROR_SIZE] = "";
	struct ch_reply r = { .curl = ch->curl, .out = answer ? NULL : out };
	struct curl_slist *hdr = NULL;
	char *url = NULL, *esc = NULL;
	int ret = -1;

	if (body) {
		esc = curl_easy_escape(ch->curl, sql, 0);
		if (!esc || asprintf(&url, "%s&query=%s", base, esc) < 0) {
			url = NULL;
			tm_fail(ENOMEM, "%s", ch->name);
			goto out;
		}
	}
	ch_setup(ch, url ? url : base, &r, errbuf);
	if (body) {
		hdr = curl_slist_append(NULL, "Transfer-Encoding: chunked");
		curl_easy_setopt(ch->curl, CURLOPT_HTTPHEADER, hdr);
		curl_easy_setopt(ch->curl, CURLOPT_READFUNCTION, ch_read_cb);
		curl_easy_setopt(ch->curl, CURLOPT_READDATA, body);
		curl_easy_setopt(ch->curl, CURLOPT_UPLOAD_BUFFERSIZE, 1L << 20);
	} else {
		curl_easy_setopt(ch->curl, CURLOPT_POSTFIELDS, sql);
		curl_easy_setopt(ch->curl, CURLOPT_POSTFIELDSIZE, (long)strlen(sql));
	}
	ret = ch_perform(ch, sql, &r, body, errbuf);
	if (!ret && answer) {
		*answer = r.text;
		r.text = (struct tm_buf){ 0 };
	}
out:
	curl_slist_free_all(hdr);
	curl_free(esc);
	free(url);
	tm_buf_free(&r.text);
	return ret;
}

static int ch_request(struct tm_ch *ch, const char *sql, FILE *out, struct ch_body *body,
		      struct tm_buf *answer)
{
	return ch_request_to(ch, ch->base, sql, out, body, answer);
}

int tm_ch_create_db(struct tm_ch *ch)
{
	char sql[192];

	snprintf(sql, sizeof(sql), "CREATE DATABASE IF NOT EXISTS `%s`", ch->db);
	return ch_request_to(ch, ch->root, sql, NULL, NULL, NULL);
}

int tm_ch_run(struct tm_ch *ch, const char *sql, FILE *out)
{
	return ch_request(ch, sql, out, NULL, NULL);
}

int tm_ch_insert(struct tm_ch *ch, const char *sql, tm_ch_fill_fn fill, void *ctx)
{
	struct ch_body body = { .fill = fill, .ctx = ctx };

	return ch_request(ch, sql, NULL, &body, NULL);
}

int tm_ch_query_u64(struct tm_ch *ch, const char *sql, uint64_t *out)
{
	struct tm_buf a = { 0 };
	char *end;

	if (ch_request(ch, sql, NULL, NULL, &a) < 0)
		return -1;
	tm_buf_put(&a, "", 1);
	errno = 0;
	*out = a.err ? 0 : strtoull((char *)a.data, &end, 10);
	if (a.err || errno || end == (char *)a.data || (*end && *end != '\n')) {
		tm_buf_free(&a);
		return tm_failx(EPROTO, "%s: %.60s: not a number in the answer", ch->name, sql);
	}
	tm_buf_free(&a);
	return 0;
}
