// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * proc_map build-ids: BPF cannot read a file, so user space opens the
 * mapped file when it records the mapping, checks it is the same inode
 * and reads its NT_GNU_BUILD_ID note with libelf. A reader can then find
 * the file's symbols by build-id after it moved or was deleted.
 */
#include "backend/map_build_id.h"

#include <fcntl.h>
#include <gelf.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* The build-id in the notes of data (a PT_NOTE's or SHT_NOTE's): its length, 0: none. */
static size_t notes_build_id(Elf_Data *data, uint8_t *out, size_t room)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && off < data->d_size &&
	       (off = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4) && nh.n_descsz &&
		    nh.n_descsz <= room) {
			memcpy(out, (const char *)data->d_buf + desc_off, nh.n_descsz);
			return nh.n_descsz;
		}
	}
	return 0;
}

static size_t elf_build_id(Elf *e, uint8_t *out, size_t room)
{
	size_t nph, n = 0;
	Elf_Scn *scn = NULL;

	if (!elf_getphdrnum(e, &nph))
		for (size_t i = 0; i < nph && !n; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_NOTE)
				n = notes_build_id(elf_getdata_rawchunk(e, (int64_t)ph.p_offset,
									ph.p_filesz, ELF_T_NHDR),
						   out, room);
		}
	while (!n && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE)
			n = notes_build_id(elf_getdata(scn, NULL), out, room);
	}
	return n;
}

uint32_t map__add_build_id(struct ptbpf_ev_proc_map *m)
{
	const uint32_t fixed = offsetof(struct ptbpf_ev_proc_map, path);
	size_t room = sizeof(m->path) - m->path_len, n = 0;
	struct stat st;
	Elf *e;
	int fd;

	m->build_id_len = 0;
	if (m->path_len < 2 || m->path_len > sizeof(m->path) || m->path[0] != '/' || !m->ino)
		return fixed + m->path_len;
	if (room > PTBPF_BUILD_ID_MAX)
		room = PTBPF_BUILD_ID_MAX;
	fd = open(m->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return fixed + m->path_len;
	/* another file at the path since: its build-id would mislead */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (uint64_t)st.st_ino == m->ino &&
	    st.st_dev == makedev(m->dev >> 20, m->dev & 0xfffff)) {
		elf_version(EV_CURRENT);
		e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		if (e && elf_kind(e) == ELF_K_ELF)
			n = elf_build_id(e, (uint8_t *)m->path + m->path_len, room);
		elf_end(e);
	}
	close(fd);
	m->build_id_len = (uint32_t)n;
	return fixed + m->path_len + (uint32_t)n;
}
