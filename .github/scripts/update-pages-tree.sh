#!/usr/bin/env bash
# The published tree of the Pages site (the main site at the root, each pull request's preview
# under pr-preview/pr-<N>/) is kept as one commit on the gh-pages branch, replaced at every
# change, so that deploying one part keeps the others. Used by deploy.yml and preview-deploy.yml:
#
#   update-pages-tree.sh OUT site SOURCE       the main site (all but pr-preview/) becomes SOURCE's files
#   update-pages-tree.sh OUT preview N SOURCE  pr-preview/pr-N/ becomes SOURCE's files
#   update-pages-tree.sh OUT remove N          pr-preview/pr-N/ is removed
#
# OUT is left holding the tree, for actions/upload-pages-artifact (which leaves .git out).
# Needs GH_TOKEN with contents: write. Copies files only: nothing in SOURCE is run.
set -euo pipefail
out=$1 what=$2
case "$what" in
  site) source=$(realpath "$3") ;;
  preview) number=$3 source=$(realpath "$4") ;;
  remove) number=$3 ;;
  *) echo "unknown change: $what" >&2; exit 2 ;;
esac
if [ -n "${number:-}" ] && ! [[ "$number" =~ ^[0-9]{1,9}$ ]]; then
  echo "not a pull request number: $number" >&2
  exit 2
fi
# PAGES_REPO: another repository to keep the tree in (the tests use a local one).
repo=${PAGES_REPO:-"https://github.com/${GITHUB_REPOSITORY}.git"}
auth="AUTHORIZATION: basic $(printf 'x-access-token:%s' "$GH_TOKEN" | base64 -w0)"
git init -q -b gh-pages "$out"
cd "$out"
if git -c http.extraheader="$auth" fetch -q --depth 1 "$repo" gh-pages; then
  git checkout -q FETCH_HEAD -- .
else
  echo "No gh-pages branch yet: it starts here."
fi
case "$what" in
  site)
    find . -mindepth 1 -maxdepth 1 ! -name .git ! -name pr-preview -exec rm -rf {} +
    cp -a "$source"/. .
    ;;
  preview)
    rm -rf "pr-preview/pr-$number"
    mkdir -p pr-preview
    cp -a "$source" "pr-preview/pr-$number"
    ;;
  remove)
    rm -rf "pr-preview/pr-$number"
    ;;
esac
touch .nojekyll  # serve the files as they are (no Jekyll run)
git add -A
git -c user.name="github-actions[bot]" -c user.email="41898282+github-actions[bot]@users.noreply.github.com" \
  commit -q -m "Pages: $what ${number:-} (${GITHUB_SHA:-})"
# One commit, no history: the tree of a large digest is hundreds of MB.
git -c http.extraheader="$auth" push -q --force "$repo" gh-pages
