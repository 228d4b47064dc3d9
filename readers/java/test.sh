#!/bin/sh
# Runs the Java reader's JUnit tests with Maven (mvn test), offline from
# Debian's packaged Maven repository (/usr/share/maven-repo): Debian 12's
# maven, libsurefire-java, junit5 and libzstd-jni-java, which
# scripts/ci-readers.sh installs. Elsewhere, plain `mvn test` in this folder
# does the same from Maven Central. Then compiles the command-line launcher's
# classes (readers/java/tilepdb) so that its first use does not.
# Run from anywhere; extra arguments go to mvn (e.g. -Dtest=CliTest).
set -e
dir=$(cd "$(dirname "$0")" && pwd)
repo=${TILEPDB_MAVEN_REPO:-/usr/share/maven-repo}
if ! command -v mvn >/dev/null; then
	echo "readers/java/test.sh: mvn not found (apt-get install maven libsurefire-java junit5 libzstd-jni-java)" >&2
	exit 2
fi
# surefire 2.22.3 is Debian's build; the pom's default, 2.22.2, is the last
# 2.x on Maven Central.
mvn -B -Dstyle.color=never -o -f "$dir/pom.xml" -Dmaven.repo.local="$repo" -Dsurefire.version=2.22.3 "$@" test
"$dir/tilepdb" --compile-only
