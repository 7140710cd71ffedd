/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * GET /metrics with libmicrohttpd: its one internal thread answers while
 * the record runs and is joined when it stops (nothing outlives the
 * command). The socket is bound here, before the traced command starts,
 * so that a port in use or an address that cannot be bound is said
 * plainly, then handed to the server. Signals stay the main thread's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

#include "metrics/metrics.h"

#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

struct metrics_server {
	struct MHD_Daemon *d;
	metrics_fn fn;
	void *ctx;
};

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *type,
			     const char *body, size_t len)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *data,
				  size_t *data_size, void **state)
{
	struct metrics_server *s = cls;
	struct sbuf b = { 0 };
	enum MHD_Result ret;

	(void)version;
	(void)data;
	(void)data_size;
	(void)state;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "GET /metrics\n", 13);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", "see /metrics\n", 13);
	s->fn(s->ctx, &b);
	if (b.failed)
		ret = reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", "out of memory\n", 14);
	else
		ret = reply(c, MHD_HTTP_OK, CONTENT_TYPE, b.s ? b.s : "", b.len);
	sb_free(&b);
	return ret;
}

/* ADDR:PORT, [ADDR]:PORT or :PORT into host (NULL: loopback) and port */
static int split_addr(const char *spec, char *host, size_t hostsz, const char **port)
{
	const char *colon = strrchr(spec, ':');
	size_t n;

	if (!colon || !colon[1])
		return -1;
	*port = colon + 1;
	n = (size_t)(colon - spec);
	if (n >= 2 && spec[0] == '[' && spec[n - 1] == ']') {
		spec++;
		n -= 2;
	}
	if (n >= hostsz)
		return -1;
	memcpy(host, spec, n);
	host[n] = '\0';
	return 0;
}

/* A listening socket on spec: its fd, or -1 with why in msg. */
static int listen_on(const char *spec, char *msg, size_t msgsz)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG };
	struct addrinfo *ai;
	char host[256];
	const char *port;
	int fd, one = 1, err;

	if (split_addr(spec, host, sizeof(host), &port)) {
		snprintf(msg, msgsz, "'%s': not ADDR:PORT", spec);
		return -1;
	}
	err = getaddrinfo(host[0] ? host : "127.0.0.1", port, &hints, &ai);
	if (err) {
		snprintf(msg, msgsz, "'%s': %s", spec, gai_strerror(err));
		return -1;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64)) {
		snprintf(msg, msgsz, "cannot listen on %s: %s", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

int metrics_serve(struct metrics_server **out, const char *addr, metrics_fn fn, void *ctx,
		  char *msg, size_t msgsz)
{
	struct metrics_server *s = calloc(1, sizeof(*s));
	sigset_t all, old;
	int fd;

	*out = NULL;
	if (!s) {
		snprintf(msg, msgsz, "out of memory");
		return -1;
	}
	fd = listen_on(addr, msg, msgsz);
	if (fd < 0) {
		free(s);
		return -1;
	}
	s->fn = fn;
	s->ctx = ctx;
	/* the server's thread takes no signal: they stay the record's */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	s->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0, NULL, NULL,
				on_request, s, MHD_OPTION_LISTEN_SOCKET, fd,
				MHD_OPTION_CONNECTION_TIMEOUT, 10u, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!s->d) {
		snprintf(msg, msgsz, "cannot serve on %s", addr);
		close(fd);
		free(s);
		return -1;
	}
	*out = s;
	return 0;
}

void metrics_server_stop(struct metrics_server *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->d); /* joins its thread, closes the socket */
	free(s);
}
