/*
 * regulation_data.c -- the groups, team competitions and prize tables of
 * the five regulations (spec docs/presets.md, the originals in the seeds)
 * as data the program acts on: xq_tgroup bands, the team mode and count,
 * and xq_prize_table values for xq_prizes_award(). The printed rows with
 * their clauses are in regulation.c; the cap, lucky-prize and team-size
 * numbers are taken from its xq_regulation fields, so each is stated
 * once.
 *
 * Clause notation as in regulation.c: 十(一) is article 十 item (一);
 * "补充规定 N" an item of the supplementary rules.
 */
#include <stdio.h>
#include <string.h>

#include "knockout.h"
#include "prize.h"
#include "tourney.h"

/* A run of places paid the same amount: the places after the previous
 * run up to and including `last`. */
typedef struct prize_run {
  int last, amount;
} prize_run;

#define RUNS_MAX 16

typedef struct cat_data {
  const char *name;
  int filter;         /* xq_prize_filter */
  const char *region; /* XQ_PF_REGION */
  int group;          /* XQ_PF_GROUP: index into the regulation's groups */
  xq_tgroup band;     /* a further condition on any filter (empty = none) */
  int repeat, apart;
  const char *clause; /* who is eligible and why (`presets show`) */
  const char *title;  /* honours: the first place's title */
  prize_run runs[RUNS_MAX]; /* ends at last == 0 */
} cat_data;

#define CATS_MAX 6
#define HONOURS_MAX 6

typedef struct reg_data {
  const char *name;       /* xq_regulation.name */
  int team_mode;          /* xq_team_mode; ignored when the regulation has no team_size */
  int team_basis;         /* xq_team_basis */
  const char *team_area;  /* only players of this region count for a team, NULL = any */
  const char *team_unit;  /* a team's players are of one place directly within it, NULL = any */
  const char *team_clause; /* who is in the team competition and on what results */
  xq_tgroup groups[XQ_REG_GROUPS_MAX];
  int ngroups;
  cat_data cats[CATS_MAX];
  int ncats;
  int team_amount[XQ_TEAM_PRIZES_MAX];
  int nteam;
  long stated_total;      /* a total the text states, 0 = none */
  cat_data honours[HONOURS_MAX]; /* titles and qualifying places (xq_regulation_honours) */
  int nhonours;
  const char *entry_born_from; /* an age limit of entry: born on or after (YYYY/MM/DD), NULL none */
  const char *entry_clause;    /* ... and the clause that states it */
} reg_data;

#define HONOUR_XJ "十(二) 冠军将分别获得“组别+棋王”称号证书; 获得各组前六名的选手获得参加2018全国象棋业余棋王赛新疆赛区决赛资格"

static const reg_data data[] = {
  {
    .name = "xinjiang2018",
    /* 十(一) 团体名次规定: 根据各队个人名次之和确定其团体名次，数值低者名次靠前
     * (以地州市为单位…可报多队: teams by prefecture, several each) */
    .team_mode = XQ_TEAM_RANK_SUM,
    .team_unit = "新疆",
    .team_clause = "十(一) 团体名次规定: 以地州市为单位，三人组成一个团队，可报多队，根据各队个人名次之和确定"
                   "其团体名次 (a team's players of one 地州市 of 新疆, a county counting for its prefecture; "
                   "on the final places)",
    .groups = {
      /* 七(一): 公开组 1958年1月1日—2001年12月31日出生 */
      {.name = "公开组 open", .born_from = "1958/01/01", .born_to = "2001/12/31"},
      /* 七(三): 老年组 1957年12月31日前出生; 十(一): 老年组和公开组同场竞技 */
      {.name = "老年组 seniors", .born_to = "1957/12/31"},
      /* 七 the junior groups are events of their own (十(一): only 老年组和
       * 公开组同场竞技; 九(三): the 11 rounds are 公开组、老年组's): `apart`.
       * 七(二): the junior groups give only "…以后出生" lower bounds, so
       * as printed they overlap; each band here ends where the next
       * younger one starts, so a child belongs to one group. */
      {.name = "8岁组 under 8", .born_from = "2010/01/01", .apart = 1},
      {.name = "10岁组 under 10", .born_from = "2008/01/01", .born_to = "2009/12/31", .apart = 1},
      {.name = "12岁组 under 12", .born_from = "2006/01/01", .born_to = "2007/12/31", .apart = 1},
      /* 七(二): 14岁以上组（2004年1月1日-2002年1月1日出生者）, bounds as
       * printed (players born 2004/01/02 - 2005/12/31 fit no junior band) */
      {.name = "14岁以上组 14 and over", .born_from = "2002/01/01", .born_to = "2004/01/01",
       .apart = 1},
    },
    .ngroups = 6,
    .cats = {
      /* 十(一): the open group, which the seniors play in (同场竞技): 冠军
       * 6000, 亚军 3500, 季军 2500, 第四名 2000, 第五名 1100, 第六七名各
       * 1000, 第八名 900, 第九名至第十二名 800, 第十三名至第十六名 500,
       * 十七至二十四名 350, 二十五至三十二名 300, 三十三至四十名 200; 40
       * places 如公开组（与老年组）报名人数过百, else the 40% cap of
       * 各组录取名次均按不高于40%的比例执行 on the open and senior entrants.
       * The juniors play their own events (`apart`). */
      {.name = "公开组 open", .filter = XQ_PF_GROUP, .group = -1,
       .band = {.name = "公开组+老年组 open and seniors", .born_to = "2001/12/31"},
       .clause = "七(一) 公开组 1958年1月1日—2001年12月31日出生; 七(三) 老年组 1957年12月31日前出生; "
                 "十(一) 老年组和公开组同场竞技, 如公开组（与老年组）报名人数过百，则录取前四十名",
       .runs = {{1, 6000}, {2, 3500}, {3, 2500}, {4, 2000}, {5, 1100}, {7, 1000}, {8, 900},
                {12, 800}, {16, 500}, {24, 350}, {32, 300}, {40, 200}}},
      /* 十(一): 少儿组视报名人数确定奖励名次，总额在5000元至10000元之间，同时
       * 根据名次定级，发放证书，另发细则: each junior group's own places
       * (the 40% cap of its own entrants), amounts not printed (0 here) */
      {.name = "8岁组 under 8", .filter = XQ_PF_GROUP, .group = 2, .apart = 1,
       .clause = "七(二) 8岁组（2010年1月1日以后出生者）; 十(一) 少儿组视报名人数确定奖励名次…另发细则",
       .runs = {{40, 0}}},
      {.name = "10岁组 under 10", .filter = XQ_PF_GROUP, .group = 3, .apart = 1,
       .clause = "七(二) 10岁组（2008年1月1日以后出生者）, up to the 8岁组; 十(一) 少儿组…另发细则",
       .runs = {{40, 0}}},
      {.name = "12岁组 under 12", .filter = XQ_PF_GROUP, .group = 4, .apart = 1,
       .clause = "七(二) 12岁组（2006年1月1日以后出生者）, up to the 10岁组; 十(一) 少儿组…另发细则",
       .runs = {{40, 0}}},
      {.name = "14岁以上组 14 and over", .filter = XQ_PF_GROUP, .group = 5, .apart = 1,
       .clause = "七(二) 14岁以上组（2004年1月1日-2002年1月1日出生者）; 十(一) 少儿组…另发细则",
       .runs = {{40, 0}}},
    },
    .ncats = 5,
    /* 十(一) 团体: 第一名 1500, 第二名 800, 第三名 500, 第四名 300, 第五六名各 200 */
    .team_amount = {1500, 800, 500, 300, 200, 200},
    .nteam = 6,
    /* 十(二): 公开组、老年组、儿童男子、女子组，少年男子、女子组冠军将分别获得
     * “组别+棋王”称号证书。获得各组前六名的选手获得参加2018全国象棋业余棋王赛
     * 新疆赛区决赛资格. 儿童 are the 8岁 and 10岁 groups (born 2008 on), 少年
     * the 12岁 and 14岁以上 groups (born 2002-2007), boys and girls apart. */
    .honours = {
      {.name = "公开组 open", .band = {.name = "公开组", .born_from = "1958/01/01", .born_to = "2001/12/31"},
       .title = "公开组棋王", .clause = HONOUR_XJ, .runs = {{6, 0}}},
      {.name = "老年组 seniors", .band = {.name = "老年组", .born_to = "1957/12/31"},
       .title = "老年组棋王", .clause = HONOUR_XJ, .runs = {{6, 0}}},
      {.name = "儿童男子组 boys (children)", .band = {.name = "儿童男子组", .born_from = "2008/01/01", .sex = 'm'},
       .title = "儿童男子组棋王", .clause = HONOUR_XJ, .runs = {{6, 0}}},
      {.name = "儿童女子组 girls (children)", .band = {.name = "儿童女子组", .born_from = "2008/01/01", .sex = 'w'},
       .title = "儿童女子组棋王", .clause = HONOUR_XJ, .runs = {{6, 0}}},
      {.name = "少年男子组 boys (juniors)",
       .band = {.name = "少年男子组", .born_from = "2002/01/01", .born_to = "2007/12/31", .sex = 'm'},
       .title = "少年男子组棋王", .clause = HONOUR_XJ, .runs = {{6, 0}}},
      {.name = "少年女子组 girls (juniors)",
       .band = {.name = "少年女子组", .born_from = "2002/01/01", .born_to = "2007/12/31", .sex = 'w'},
       .title = "少年女子组棋王", .clause = HONOUR_XJ, .runs = {{6, 0}}},
    },
    .nhonours = 6,
  },
  {
    .name = "burqin2018",
    /* 五(七), 补充规定 5: 团体取三名队员积分之和，积分多者列前 */
    .team_mode = XQ_TEAM_POINTS_SUM,
    /* 四(二) 团体赛：仅限阿勒泰地区六县一市、喀纳斯管委会、十师北屯市; 六(二)
     * 阿勒泰地区符合条件的团体队伍录取奖励前三名: teams of other places are
     * not in the team competition (data/regions.txt has Kanas and Beitun
     * within the prefecture) */
    .team_area = "阿勒泰",
    .team_clause = "四(二) 团体赛：仅限阿勒泰地区六县一市、喀纳斯管委会、十师北屯市; 六(二) 阿勒泰地区符合条件"
                   "的团体队伍录取奖励前三名; 五(七) 各队三名棋手个人积分总和",
    .groups = {
      /* 四(一): 个人公开赛 for anyone 70周岁以下 -- an entry condition, not a
       * ranking band, so the open group has no birth bound */
      {.name = "公开组 open"},
      /* 六(三): 布尔津籍棋手（以身份证确认）, ranked among themselves.
       * 六(六)'s 少年棋手 get discretionary encouragement prizes and no
       * age band, so they are no group here. */
      {.name = "布尔津籍 Burqin players", .local_only = 1},
    },
    .ngroups = 2,
    .cats = {
      /* 六(四)1: 第一名 5000, 第二名 2000, 第三名 1000, 第四名 800, 第五名
       * 600, 第六名 500, 第七、八名各 400, 第九至十二名 300, 第十三至十六名
       * 各 200 (个人奖金合计 12700) */
      {.name = "个人 open", .filter = XQ_PF_ALL,
       .clause = "四(一) 个人公开赛：国内外象棋爱好者均可报名; 六(四)1 奖励个人公开赛前十六名",
       .runs = {{1, 5000}, {2, 2000}, {3, 1000}, {4, 800}, {5, 600}, {6, 500}, {8, 400},
                {12, 300}, {16, 200}}},
      /* 六(四)3: 布尔津籍个人前六名 1000, 600, 500, 300, 200, 200 (本县奖金合计
       * 2800); 六(三): 若…均获奖，奖金可重复领取 -- won on top of the open prize */
      {.name = "布尔津籍 Burqin players", .filter = XQ_PF_LOCAL, .repeat = 1,
       .clause = "六(三) 布尔津籍棋手（以身份证确认）奖励前六名…奖金可重复领取 (the local flag: ID card)",
       .runs = {{1, 1000}, {2, 600}, {3, 500}, {4, 300}, {6, 200}}},
    },
    .ncats = 2,
    /* 六(四)2: 团体前三名 1800, 1500, 1200 (团体奖金合计 4500) */
    .team_amount = {1800, 1500, 1200},
    .nteam = 3,
    /* 六(四): 赛事总奖金2万，幸运奖及少儿鼓励奖另计 = 12700 + 4500 + 2800 */
    .stated_total = 20000,
    /* 四(一) 年龄要求70周岁以下, on the first day (二: 2018年7月7日): born
     * after 1948/07/07 (who was born that day is 70 on it) */
    .entry_born_from = "1948/07/08",
    .entry_clause = "四(一) 年龄要求70周岁以下 (on 2018/07/07, the first day, 二)",
  },
  {
    .name = "shaanxi2019",
    .groups = {
      /* 十(二)1: the open event (业余棋王赛). The village-king event
       * (十(二)2, 九) is a knockout of its own, entered by a record (never
       * top 8 of a county event), not by a birth band. */
      {.name = "公开组 open"},
    },
    .ngroups = 1,
    .cats = {
      /* 十二(一) 录取前25名; 十二(二)1: 第1名 20000, 第2名 10000, 第3名 5000,
       * 第4名 3000, 第5-8名 2000, 1500, 1300, 1000, 9-12名 700, 13-18名 500,
       * 19-25名 200 */
      {.name = "公开 open", .filter = XQ_PF_ALL,
       .clause = "十二(一) 录取前25名 (everyone)",
       .runs = {{1, 20000}, {2, 10000}, {3, 5000}, {4, 3000}, {5, 2000}, {6, 1500}, {7, 1300},
                {8, 1000}, {12, 700}, {18, 500}, {25, 200}}},
      /* 十二(二)2: 榆林籍前八名（可重复拿奖）1500, 1200, 1000, 800, 500,
       * 第六-八名 300. 榆林 is the prefecture: a player of any of its
       * counties (佳县, 神木, 府谷, 米脂, 绥德, ...; data/regions.txt) is one. */
      {.name = "榆林籍 Yulin", .filter = XQ_PF_REGION, .region = "榆林", .repeat = 1,
       .clause = "十二(二)2 榆林籍前八名（可重复拿奖）: the region within Yulin prefecture (its 12 counties "
                 "and districts)",
       .runs = {{1, 1500}, {2, 1200}, {3, 1000}, {4, 800}, {5, 500}, {8, 300}}},
      /* 十二(二)3: 佳县籍前六名（可重复拿奖）1000, 800, 500, 第四－六名 300 */
      {.name = "佳县籍 Jia county", .filter = XQ_PF_REGION, .region = "佳县", .repeat = 1,
       .clause = "十二(二)3 佳县籍前六名（可重复拿奖）: the region within Jia county",
       .runs = {{1, 1000}, {2, 800}, {3, 500}, {6, 300}}},
    },
    .ncats = 3,
    /* 十二(三)1: 最高名次陕西藉棋手将获得由中国象棋协会颁发的棋王证书; 2: 获得陕西籍
     * 前六名的选手均获得2019年…全国业余棋王赛陕西赛区总决赛资格 (陕西: the
     * province, data/regions.txt) */
    .honours = {
      {.name = "陕西籍 Shaanxi players", .region = "陕西", .title = "棋王证书 (中国象棋协会)",
       .clause = "十二(三)1 最高名次陕西藉棋手将获得由中国象棋协会颁发的棋王证书; 十二(三)2 获得陕西籍前六名的"
                 "选手均获得…陕西赛区总决赛资格",
       .runs = {{6, 0}}},
    },
    .nhonours = 1,
    /* 十二(二)5-7 (village-king, endgame and simultaneous-display prizes)
     * belong to side events, not to the places of this one. */
  },
  {
    .name = "wujiaqu2024",
    .groups = {
      /* 十(一) 公开组, 十(二) 本地组 (headings only) */
      {.name = "公开组 open"},
      {.name = "本地组 local", .local_only = 1},
    },
    .ngroups = 2,
    /* 十: 奖金总计151000元（税后）; the tables under 十(一) 公开组 and
     * 十(二) 本地组 are empty in the text, so there are no categories. */
    .stated_total = 151000,
  },
  {
    .name = "tangshan2018",
    /* 八.8: 团体成绩按照个人名次分总和计算…名次分总和少者列前; 八.3:
     * 团体成绩按照预赛成绩计算 -- the places of the 9 Swiss rounds, not
     * the final places after the top-4 final */
    .team_mode = XQ_TEAM_RANK_SUM,
    .team_basis = XQ_TEAM_BASIS_SWISS,
    .team_clause = "六.5 以县区或单位组队 (open group, 4 players); 八.3 团体成绩按照预赛成绩计算; 八.8 个人名次分总和",
    .groups = {
      /* 六.1: 公开组 年龄、性别均不限 */
      {.name = "公开组 open"},
      /* 六.2-4: 男、女分开录取成绩; 九.3-4: 女子组不足三人取消该组，混入男子组.
       * Each plays its own event (八.3 is the open group's 预赛 of 9 rounds,
       * 八.2 the others' 7 or 9 rounds, 八.4 their own clocks): `apart` */
      {.name = "老年组 seniors", .born_to = "1957/12/31", .sections = 1, .apart = 1},
      {.name = "少年组 juniors", .born_from = "2002/01/01", .born_to = "2006/12/31", .sections = 1, .apart = 1},
      {.name = "儿童组 children", .born_from = "2007/01/01", .sections = 1, .apart = 1},
    },
    .ngroups = 4,
    .cats = {
      /* 九.2: 成年公开组奖励前16名 (不分男女): 3000, 2500, 2000, 1500, 1000,
       * 800, 600, 500, 第9-12名 300, 13-16名 200 */
      {.name = "公开组 open", .filter = XQ_PF_ALL,
       .clause = "六.1 公开组 年龄、性别均不限; 九.2 成年公开组奖励前16名 (不分男女)",
       .runs = {{1, 3000}, {2, 2500}, {3, 2000}, {4, 1500}, {5, 1000}, {6, 800}, {7, 600},
                {8, 500}, {12, 300}, {16, 200}}},
      /* 九.3: 老年组奖励前6名 (奖金不分男女): 600, 500, 400, 300, 第5-6名各
       * 200. The groups play apart (八.2-4: the open group's 预赛 and the
       * other groups' own rounds and clock), so this list is for the
       * seniors' own event (xq_prize_table_only), not the open one. */
      {.name = "老年组 seniors", .filter = XQ_PF_GROUP, .group = 1, .apart = 1,
       .clause = "六.2 老年组 1957年12月31日前出生; 八.3 公开组预赛 v 八.2, 八.4 其他组别 (its own event, "
                 "rounds and clock); 九.3 奖金不分男女",
       .runs = {{1, 600}, {2, 500}, {3, 400}, {4, 300}, {6, 200}}},
      /* 九.4: 少年组、儿童组分别取前6名，颁发奖品、证书 -- each group's own
       * event (八.2-4), a men's and a women's list (六.3-4; 九.4 女子组不足
       * 三人…混入男子组), places 1-6 paid in goods: no amounts (0 here) */
      {.name = "少年组 juniors", .filter = XQ_PF_GROUP, .group = 2, .apart = 1,
       .clause = "六.3 少年组 2002年1月1日--2006年12月31日出生; 九.4 少年组、儿童组分别取前6名，颁发奖品、证书 "
                 "(goods, no amounts)",
       .runs = {{6, 0}}},
      {.name = "儿童组 children", .filter = XQ_PF_GROUP, .group = 3, .apart = 1,
       .clause = "六.4 儿童组 2007年1月1日后出生; 九.4 少年组、儿童组分别取前6名，颁发奖品、证书 (goods, no amounts)",
       .runs = {{6, 0}}},
    },
    .ncats = 4,
    /* 九.5: 团体奖励前6名 -- a cup and diplomas, no money */
  },
};
#define NDATA ((int)(sizeof data / sizeof data[0]))

static int fail(xq_error *err, int code, const char *msg)
{
  if (err) {
    err->code = code; err->pos = -1; err->ply = -1;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
  }
  return code;
}

static const reg_data *find(const xq_regulation *r)
{
  for (int i = 0; r && r->name && i < NDATA; i++)
    if (!strcmp(data[i].name, r->name)) return &data[i];
  return NULL;
}

/* Category `cd` as xq_prize_cat (its group from `groups`). */
static void fill_cat(const cat_data *cd, const xq_tgroup *groups, xq_prize_cat *pc)
{
  memset(pc, 0, sizeof *pc);
  snprintf(pc->name, sizeof pc->name, "%s", cd->name);
  pc->filter = cd->filter;
  if (cd->region) snprintf(pc->region, sizeof pc->region, "%s", cd->region);
  if (cd->filter == XQ_PF_GROUP && cd->group >= 0) pc->group = groups[cd->group];
  else if (cd->band.name[0]) pc->group = cd->band;
  pc->clause = cd->clause;
  pc->title = cd->title;
  pc->repeat = cd->repeat;
  pc->apart = cd->apart;
  for (int k = 0; k < RUNS_MAX && cd->runs[k].last; k++)
    while (pc->nplaces < cd->runs[k].last) pc->amount[pc->nplaces++] = cd->runs[k].amount;
}

/* The groups of `d` as regulation `r`'s options read them (reg_options.c). */
static void reg_groups(const xq_regulation *r, const reg_data *d, xq_tgroup *out)
{
  memcpy(out, d->groups, sizeof *out * (size_t)d->ngroups);
  /* Xinjiang u14=to2005: 14岁以上组 up to the 12岁组's start */
  if (xq_regulation_option(r, "u14") == 1) snprintf(out[5].born_to, sizeof out[5].born_to, "2005/12/31");
  /* Tangshan seniors=one: one list for men and women */
  if (xq_regulation_option(r, "seniors") == 1) out[1].sections = 0;
}

int xq_regulation_prizes(const xq_regulation *r, int entrants, xq_prize_table *t, xq_error *err)
{
  const reg_data *d = find(r);
  if (!t || entrants < 0) return fail(err, XQ_EINVAL, "no table or a negative entry count");
  if (!d) return fail(err, XQ_EINVAL, "no such regulation");
  memset(t, 0, sizeof *t);
  xq_tgroup groups[XQ_REG_GROUPS_MAX];
  reg_groups(r, d, groups);
  t->cap_pct = r->prize_cap_pct;
  t->stated_total = d->stated_total;
  for (int c = 0; c < d->ncats; c++) fill_cat(&d->cats[c], groups, &t->cats[t->ncats++]);
  /* Xinjiang 十(一): 如公开组报名人数过百，则录取前四十名; a field of 100
   * or fewer keeps the ⌊40%⌋ places the cap leaves (各组录取名次均按不高于
   * 40%的比例执行), the cap of each category being on its own members (the
   * open table's: the open and senior entrants), so `entrants` changes
   * nothing here */
  (void)entrants;
  /* Xinjiang ko_places=shared: the knockout's losers share their places */
  if (xq_regulation_option(r, "ko_places") == 1) {
    t->share_first[0] = 3, t->share_last[0] = 4;
    t->share_first[1] = 5, t->share_last[1] = 8;
    t->nshare = 2;
  }
  /* the lucky prizes of regulation.c (Burqin 六(六), Shaanxi 十二(二)4) */
  t->lucky_start = r->lucky_start;
  t->lucky_step = r->lucky_step;
  t->lucky_last = r->lucky_last;
  t->lucky_amount = r->lucky_amount;
  t->lucky_active = r->lucky_active_only;
  t->nteam = d->nteam;
  memcpy(t->team_amount, d->team_amount, sizeof t->team_amount);
  return XQ_OK;
}

int xq_regulation_honours(const xq_regulation *r, xq_prize_table *t, xq_error *err)
{
  const reg_data *d = find(r);
  if (!t) return fail(err, XQ_EINVAL, "no table");
  if (!d) return fail(err, XQ_EINVAL, "no such regulation");
  memset(t, 0, sizeof *t);
  xq_tgroup groups[XQ_REG_GROUPS_MAX];
  reg_groups(r, d, groups);
  for (int c = 0; c < d->nhonours; c++) {
    fill_cat(&d->honours[c], groups, &t->cats[t->ncats]);
    t->cats[t->ncats++].repeat = 1; /* each list by its own order */
  }
  return XQ_OK;
}

int xq_regulation_groups(const xq_regulation *r, xq_tgroup *out, int cap, int *n, xq_error *err)
{
  const reg_data *d = find(r);
  if (!out || !n || cap < 0) return fail(err, XQ_EINVAL, "no room for the groups");
  if (!d) return fail(err, XQ_EINVAL, "no such regulation");
  if (d->ngroups > cap) return fail(err, XQ_ELIMIT, "more groups than room for them");
  xq_tgroup groups[XQ_REG_GROUPS_MAX];
  reg_groups(r, d, groups);
  memcpy(out, groups, sizeof *out * (size_t)d->ngroups);
  *n = d->ngroups;
  return XQ_OK;
}

int xq_regulation_teams(const xq_regulation *r, int *mode, int *counted)
{
  xq_team_rule rule;
  if (!mode || !counted || xq_regulation_team_rule(r, &rule)) return XQ_EINVAL;
  *mode = rule.mode;
  *counted = rule.counted;
  return XQ_OK;
}

int xq_regulation_team_rule(const xq_regulation *r, xq_team_rule *out)
{
  const reg_data *d = find(r);
  if (!d || !out) return XQ_EINVAL;
  memset(out, 0, sizeof *out);
  /* the team size of regulation.c; none = no team competition */
  out->counted = r->team_size;
  if (!r->team_size) return XQ_OK;
  out->mode = d->team_mode;
  out->basis = d->team_basis;
  if (d->team_area) snprintf(out->area, sizeof out->area, "%s", d->team_area);
  if (d->team_unit) snprintf(out->unit, sizeof out->unit, "%s", d->team_unit);
  out->clause = d->team_clause;
  return XQ_OK;
}

/* The knockout-only sub-events (knockout.h xq_ko_event). */
typedef struct ko_event_data {
  const char *regulation;   /* xq_regulation.name */
  xq_ko_event ev;
} ko_event_data;

static const ko_event_data ko_events[] = {
  {"shaanxi2019", {
    .key = "village",
    .name = "乡村棋王 village king",
    /* 十(二)2: 乡村棋王赛淘汰制; the games and the final's clocks are the
     * format's (knockout.c, XQ_KO_FMT_VILLAGE) */
    .format = "shaanxi",
    /* 十二(二)5: 3月8日-3月9日两日两乡镇第一名总决出来棋王 -- a knockout
     * a day, one per township, and their winners' final. The text names
     * neither township. */
    .pools = 2,
    .pool_names = {"乡镇一 township 1", "乡镇二 township 2"},
    .entrants_default = 48,
    /* 十二(二)5: 第一名300 第二名200 第三名100 第四-六50元, a township's
     * places (its knockout's); 另加200元 to the king */
    .nplaces = 6,
    .amount = {300, 200, 100, 50, 50, 50},
    .final_bonus = 200,
    .entry_clause = "九: 榆阳区，佳县，神木县没有拿过县级比赛前八的有资格报名，免报名费",
    .format_clause = "十(二)2: 乡村棋王赛淘汰制；（双方用时超过20分钟后加比赛棋钟5分包干）总决赛抽签定先20分+10秒;"
                     "和棋换先10分+5秒;再和抽签定先红方6分+3秒黑方4分+3秒和棋黑胜",
    .prize_clause = "十二(二)5: 乡村棋王奖：第一名300 第二名200 第三名100第四-六50元",
    .bonus_clause = "十二(二)5: 3月8日-3月9日两日两乡镇第一名总决出来棋王另加200元",
  }},
};
#define NKO_EVENTS ((int)(sizeof ko_events / sizeof ko_events[0]))

int xq_regulation_ko_event(const xq_regulation *r, const char *name, const xq_ko_event **out)
{
  if (!r || !r->name || !out) return XQ_EINVAL;
  for (int i = 0; i < NKO_EVENTS; i++) {
    const xq_ko_event *e = &ko_events[i].ev;
    if (strcmp(ko_events[i].regulation, r->name)) continue;
    if (!name || !name[0] || strstr(e->key, name) || strstr(e->name, name)) {
      *out = e;
      return XQ_OK;
    }
  }
  return XQ_EINVAL;
}

int xq_regulation_age_limit(const xq_regulation *r, const char **born_from, const char **clause)
{
  const reg_data *d = find(r);
  if (!d || !d->entry_born_from) return 0;
  if (born_from) *born_from = d->entry_born_from;
  if (clause) *clause = d->entry_clause;
  return 1;
}
