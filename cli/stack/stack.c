// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * -k: unwinding the user stacks of a trace with libdwfl, as perf's
 * util/unwind-libdw.c does: per process a Dwfl of the files its proc_map
 * events mapped, its thread callbacks reading the registers and the copy
 * of the stack a user_stack event holds; frames named from the modules'
 * symbol tables (and separate debug info, found by build-id).
 */
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <ptbpf/events.h>

#include "util/util.h"
#include "stack/stack_int.h"

#define STACK_FRAMES_MAX 256 /* what is shown of one stack */

struct stack_mod {
	char *path; /* as mapped: the module's name */
	char *file; /* what is read: path, or a file found by build-id */
	uint64_t bias;
};

/* One process: its modules, their Dwfl (rebuilt after a change). */
struct stack_proc {
	pid_t pid;
	struct stack_mod *mods;
	size_t n, cap;
	char *interp; /* the program's PT_INTERP: the interpreter's path */
	Dwfl *dwfl;
	bool stale;
	/* the stack being unwound, for the thread callbacks */
	const struct ptbpf_ev_user_stack *st;
	bool given;
};

static const Dwfl_Callbacks dwfl_cbs = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &stack_dwfl_debuginfo_path,
};

struct stack_view *stack_view_new(void)
{
	struct stack_view *s = calloc(1, sizeof(*s));

	if (!s)
		cli_err("out of memory");
	elf_version(EV_CURRENT);
	return s;
}

static void proc_clear(struct stack_proc *p)
{
	for (size_t i = 0; i < p->n; i++) {
		if (p->mods[i].file != p->mods[i].path)
			free(p->mods[i].file);
		free(p->mods[i].path);
	}
	p->n = 0;
	free(p->interp);
	p->interp = NULL;
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
}

static void proc_free(void *v)
{
	struct stack_proc *p = v;

	proc_clear(p);
	free(p->mods);
	free(p);
}

void stack_view_free(struct stack_view *s)
{
	if (!s)
		return;
	pidmap_free(&s->procs, proc_free);
	pidmap_free(&s->tables, free);
	stack_kernel_free();
	free(s);
}

void stack_view_gone(struct stack_view *s, pid_t pid)
{
	struct stack_proc *p = pidmap_del(&s->procs, pid);

	if (p)
		proc_free(p);
}

static struct stack_proc *proc_get(struct stack_view *s, pid_t pid)
{
	struct stack_proc *p = pidmap_get(&s->procs, pid);

	if (p || pid <= 0)
		return p;
	p = calloc(1, sizeof(*p));
	if (!p || pidmap_put(&s->procs, pid, p)) {
		free(p);
		return NULL;
	}
	p->pid = pid;
	return p;
}

/* The program's entry point in its file, and its PT_INTERP (malloc'd). */
static int elf_entry_interp(const char *path, uint64_t *entry, char **interp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	GElf_Ehdr eh;
	size_t nph;
	Elf *e;

	*interp = NULL;
	if (fd < 0)
		return -1;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && gelf_getehdr(e, &eh) && !elf_getphdrnum(e, &nph)) {
		*entry = eh.e_entry;
		ret = 0;
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;
			size_t len;
			char *raw;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_INTERP)
				continue;
			raw = elf_rawfile(e, &len);
			if (raw && ph.p_offset < len && ph.p_filesz <= len - ph.p_offset)
				*interp = strndup(raw + ph.p_offset, ph.p_filesz);
			break;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

/* A module of the process: path as mapped, read from file (NULL: path). */
static void proc_add(struct stack_proc *p, const char *path, const char *file, uint64_t bias)
{
	struct stack_mod *m;
	char *canon;

	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->mods[i].path, path))
			return; /* another segment of a file reported already */
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 8;

		m = realloc(p->mods, cap * sizeof(*m));
		if (!m)
			return;
		p->mods = m;
		p->cap = cap;
	}
	m = &p->mods[p->n];
	/* the interpreter's PT_INTERP is a link: strace names the file */
	canon = file ? NULL : realpath(path, NULL);
	m->path = canon ? canon : strdup(path);
	if (!m->path)
		return;
	m->file = file ? strdup(file) : m->path;
	if (!m->file) {
		free(m->path);
		return;
	}
	m->bias = bias;
	p->n++;
	p->stale = true;
}

/*
 * Is the file at m's path still the one that was mapped? A file rebuilt
 * or replaced since would give its own names to the old addresses.
 */
static bool same_file(const struct ptbpf_ev_proc_map *m)
{
	struct stat st;

	if (stat(m->path, &st))
		return false;
	if (!m->ino)
		return true; /* not known: the interpreter */
	return st.st_ino == m->ino && (uint64_t)st.st_size == m->size &&
	       st.st_dev == makedev(m->dev >> 20, m->dev & 0xfffff);
}

/*
 * The file to read m's module from: its path if the file there is the one
 * mapped, else one of its build-id under the debug directory (moved,
 * deleted, replaced: never another file's names); NULL: none. *found is
 * that file (malloc'd), NULL for m's path itself.
 */
static const char *map_file(const struct ptbpf_ev_proc_map *m, size_t len, char **found)
{
	const size_t fixed = offsetof(struct ptbpf_ev_proc_map, path);
	size_t n = strlen(m->path) + 1;

	*found = NULL;
	if (same_file(m))
		return m->path;
	/* the build-id after the path, as far as the event holds it */
	if (!m->build_id_len || m->build_id_len > PTBPF_BUILD_ID_MAX || n != m->path_len ||
	    len - fixed < n || len - fixed - n < m->build_id_len)
		return NULL;
	*found = stack_find_build_id((const unsigned char *)m->path + n, m->build_id_len);
	return *found;
}

void stack_view_map(struct stack_view *s, pid_t pid, const void *data, size_t len)
{
	const size_t fixed = offsetof(struct ptbpf_ev_proc_map, path);
	struct ptbpf_ev_proc_map m;
	struct stack_proc *p;
	uint64_t entry = 0;
	const char *file;
	char *interp, *found = NULL;

	if (len <= fixed || len > sizeof(m))
		return;
	memset(&m, 0, sizeof(m));
	memcpy(&m, data, len);
	m.path[sizeof(m.path) - 1] = 0; /* untrusted: a string, whatever it says */
	p = proc_get(s, pid);
	if (!p)
		return;
	switch (m.kind) {
	case PTBPF_MAP_EXEC:
		/* a new address space */
		proc_clear(p);
		if (m.path[0] == '/' && (file = map_file(&m, len, &found)) &&
		    !elf_entry_interp(file, &entry, &interp)) {
			/* a .debug file's PT_INTERP has no bytes */
			if (interp && interp[0] != '/') {
				free(interp);
				interp = NULL;
			}
			p->interp = interp;
			proc_add(p, m.path, found, m.start - entry);
		}
		free(found);
		break;
	case PTBPF_MAP_INTERP:
		if (m.path[0] == '/')
			proc_add(p, m.path, NULL, m.start);
		else if (p->interp)
			proc_add(p, p->interp, NULL, m.start);
		break;
	case PTBPF_MAP_MMAP:
		if (m.path[0] == '/' && m.start >= m.offset && (file = map_file(&m, len, &found)))
			proc_add(p, m.path, found, m.start - m.offset);
		free(found);
		break;
	}
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct stack_proc *p = arg;

	(void)dwfl;
	if (p->given)
		return 0;
	p->given = true;
	*thread_argp = p;
	return p->pid;
}

/* Words of the copied stack; anything else is not known. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct stack_proc *p = arg;
	uint64_t sp = p->st->regs[PTBPF_STACK_REG_SP];

	(void)dwfl;
	if (addr < sp || addr - sp > p->st->stack_len ||
	    p->st->stack_len - (addr - sp) < sizeof(*result))
		return false;
	memcpy(result, p->st->stack + (addr - sp), sizeof(*result));
	return true;
}

#if defined(__aarch64__)
/* the DWARF number of each slot of user_stack's regs (events.h), pc apart */
static const int16_t dwarf_regno[PTBPF_STACK_REGS] = {
	19, 20, 21, 22, 23, 24, 25, 31, 26, 27, 28, 29, 30, 0, 1, 2, -1,
};

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct stack_proc *p = arg;

	for (int i = 0; i < PTBPF_STACK_REGS; i++) {
		Dwarf_Word v = p->st->regs[i];

		if (dwarf_regno[i] >= 0 &&
		    !dwfl_thread_state_registers(thread, dwarf_regno[i], 1, &v))
			return false;
	}
	dwfl_thread_state_register_pc(thread, p->st->regs[PTBPF_STACK_REG_IP]);
	return true;
}
#else
static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct stack_proc *p = arg;
	Dwarf_Word regs[PTBPF_STACK_REGS];

	for (int i = 0; i < PTBPF_STACK_REGS; i++)
		regs[i] = p->st->regs[i];
	return dwfl_thread_state_registers(thread, 0, PTBPF_STACK_REGS, regs);
}
#endif

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* The process's Dwfl, (re)built from its modules. */
static Dwfl *proc_dwfl(struct stack_proc *p)
{
	if (p->dwfl && !p->stale)
		return p->dwfl;
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->stale = false;
	p->dwfl = dwfl_begin(&dwfl_cbs);
	if (!p->dwfl)
		return NULL;
	dwfl_report_begin(p->dwfl);
	/* a file that is gone: its frames are printed raw */
	for (size_t i = 0; i < p->n; i++)
		dwfl_report_elf(p->dwfl, p->mods[i].path, p->mods[i].file, -1, p->mods[i].bias,
				false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!dwfl_attach_state(p->dwfl, NULL, p->pid, &thread_cbs, p)) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
	}
	return p->dwfl;
}

struct frames {
	Dwfl *dwfl;
	struct stack_frames *fr;
	size_t max; /* frames at most */
};

static void frame_resolve(Dwfl *dwfl, struct stack_frame *fr, Dwarf_Addr pc, bool activation)
{
	/* a return address points after its call: look up the call */
	Dwarf_Addr at = pc - !activation, start = 0;
	Dwfl_Module *mod = dwfl ? dwfl_addrmodule(dwfl, at) : NULL;
	const char *modname, *sym, *file;
	GElf_Off off = 0;
	Dwfl_Line *line;
	GElf_Sym esym;
	int lineno = 0;

	fr->pc = pc;
	if (!mod)
		return;
	/* as strace -k: the symbol of the call, the offsets of pc itself */
	modname = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	fr->module = modname ? strdup(modname) : NULL;
	fr->modoff = pc - start;
	sym = dwfl_module_addrinfo(mod, at, &off, &esym, NULL, NULL, NULL);
	if (sym) {
		fr->symbol = strndup(sym, strcspn(sym, "@")); /* no symbol version */
		fr->symoff = off + !activation;
	}
	line = dwfl_module_getsrc(mod, at);
	file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL) : NULL;
	if (file) {
		fr->file = strdup(file);
		fr->line = lineno;
	}
}

/* Room for one more frame in fr, zeroed: NULL when out of memory. */
static struct stack_frame *frame_new(struct stack_frames *fr)
{
	/* the capacity is implied by n: 16, then each power of two */
	bool full = !fr->n || (fr->n >= 16 && !(fr->n & (fr->n - 1)));

	if (full) {
		struct stack_frame *n = realloc(fr->f, (fr->n ? 2 * fr->n : 16) * sizeof(*n));

		if (!n)
			return NULL;
		fr->f = n;
	}
	memset(&fr->f[fr->n], 0, sizeof(fr->f[0]));
	return &fr->f[fr->n++];
}

static int frame_add(struct frames *f, Dwarf_Addr pc, bool activation)
{
	struct stack_frame *fr = frame_new(f->fr);

	if (!fr)
		return -1;
	frame_resolve(f->dwfl, fr, pc, activation);
	return 0;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct frames *f = arg;
	bool activation;
	Dwarf_Addr pc;

	if (!dwfl_frame_pc(state, &pc, &activation) || frame_add(f, pc, activation))
		return DWARF_CB_ABORT;
	return f->fr->n < f->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

int stack_view_add_frame(struct stack_view *s, pid_t pid, struct stack_frames *fr, uint64_t pc,
			 int activation)
{
	struct stack_proc *p = pidmap_get(&s->procs, pid);
	struct frames f = { .dwfl = p ? proc_dwfl(p) : NULL, .fr = fr };

	return frame_add(&f, pc, activation);
}

void stack_frames_free(struct stack_frames *fr)
{
	for (size_t i = 0; fr && i < fr->n; i++) {
		free(fr->f[i].module);
		free(fr->f[i].symbol);
		free(fr->f[i].file);
	}
	if (fr)
		free(fr->f);
	free(fr);
}

struct stack_frames *stack_view_frames(struct stack_view *s, pid_t pid, const void *data,
				       size_t len)
{
	const size_t fixed = offsetof(struct ptbpf_ev_user_stack, stack);
	const struct ptbpf_ev_user_stack *st = data;
	struct stack_proc *p = pidmap_get(&s->procs, pid);
	struct frames f = { 0 };

	/* untrusted: the stack is what the event holds, no more */
	if (len < fixed || st->stack_len > len - fixed)
		return NULL;
	f.fr = calloc(1, sizeof(*f.fr));
	if (!f.fr)
		return NULL;
	/* the depth the stream was asked for (an older log: not said) */
	f.max = PTBPF_STACK_DEPTH(st->flags) ? PTBPF_STACK_DEPTH(st->flags) : STACK_FRAMES_MAX;
	if (f.max > STACK_FRAMES_MAX)
		f.max = STACK_FRAMES_MAX;
	f.dwfl = p ? proc_dwfl(p) : NULL;
	if (f.dwfl) {
		p->st = st;
		p->given = false;
		dwfl_getthread_frames(f.dwfl, pid, frame_cb, &f);
		p->st = NULL;
	}
	/* no unwinding at all: the pc, raw */
	if (!f.fr->n && frame_add(&f, st->regs[PTBPF_STACK_REG_IP], true)) {
		stack_frames_free(f.fr);
		return NULL;
	}
	return f.fr;
}
